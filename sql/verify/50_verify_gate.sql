-- verify_gate: the completion gate, one row per completion condition with the evidence behind it; work is complete only when every row holds
--   ord: condition order
--   condition: the completion condition
--   holds: whether it holds
--   evidence: what it rests on
CREATE OR REPLACE VIEW verify_gate AS
WITH latest_version AS (SELECT version_id FROM verify_artifact_files ORDER BY pos DESC LIMIT 1),
latest_files AS (SELECT path, sha256 FROM verify_artifact_files WHERE version_id = (SELECT version_id
    FROM latest_version)),
edited AS (
    SELECT list(f.path ORDER BY f.path) AS paths FROM latest_files AS f
    LEFT JOIN verify_current_files AS c USING (path) WHERE c.sha256 IS DISTINCT FROM f.sha256
),
cp AS (SELECT * FROM verify_checkpoints ORDER BY pos DESC LIMIT 1),
state AS (SELECT s.* FROM verify_checkpoint_states AS s JOIN cp USING (checkpoint_id)),
ev AS (SELECT e.* FROM verify_valid_evidence AS e JOIN cp USING (checkpoint_id)),
facts AS (
    SELECT (SELECT version_id FROM latest_version) AS latest_version, (SELECT version_id FROM cp) AS cp_version,
        (SELECT checkpoint_id FROM cp) AS cp_id, coalesce(len((SELECT paths FROM edited)), 0) AS edited_count,
        (SELECT array_to_string(paths, ', ') FROM edited) AS edited_paths,
        -- produced from that code: a claim that counts pins the screenshot together with the code or DOM it rendered
        EXISTS (SELECT 1 FROM cp JOIN ev ON true JOIN verify_claims AS c ON c.pos = ev.pos
                WHERE list_contains(list_transform(c.inputs, lambda i: i.path || '|' || i.sha256), cp.screenshot_path
                    || '|' || cp.screenshot_sha256)
                  AND list_bool_or(list_transform(c.inputs, lambda i: i.role IN ('code', 'DOM')))) AS shot_from_code,
        (SELECT count(*) FROM ev WHERE kind = 'spatial') AS spatial, (SELECT count(*) FROM ev WHERE kind = 'visual'
            AND NOT starts_with(verifier, 'jfi')) AS visual,
        (SELECT count(*) FROM ev WHERE clipped OR len(overlapping) > 0 OR escaped) AS defects,
        (SELECT count(*) FROM ev WHERE kind = 'spatial' AND drift_failed) AS drifts,
        (SELECT count(*) FROM ev WHERE kind = 'visual' AND significant AND result = 'FAIL') AS visual_fails,
        (SELECT count(*) FROM ev) AS claims, (SELECT state FROM state) AS state
)
SELECT * FROM (VALUES (0, '', false, '')) AS t(ord, condition, holds, evidence) WHERE false
UNION ALL SELECT 1, 'the latest code is a checkpoint', cp_version IS NOT NULL AND cp_version = latest_version
    AND edited_count = 0,
    CASE WHEN latest_version IS NULL THEN 'no artifact version recorded (jfi verify snapshot)'
         WHEN edited_count > 0 THEN 'edited since the last snapshot: ' || edited_paths
         WHEN cp_version IS DISTINCT FROM latest_version THEN 'latest version ' || latest_version
             || ' has no checkpoint'
         ELSE 'checkpoint ' || cp_id || ' on version ' || latest_version END FROM facts
UNION ALL SELECT 2, 'its screenshot was produced from that code', coalesce(shot_from_code, false),
    CASE WHEN shot_from_code THEN 'a claim that counts pins the screenshot with the code or DOM it was rendered from'
         ELSE 'no claim that counts ties the checkpoint''s screenshot to this code' END FROM facts
UNION ALL SELECT 3, 'spatial verification ran', spatial > 0, spatial || ' spatial claim(s) count for the checkpoint'
    FROM facts
UNION ALL SELECT 4, 'visual verification by an external verifier ran', visual > 0, visual
    || ' external visual claim(s) count for the checkpoint' FROM facts
UNION ALL SELECT 5, 'no clipping, occlusion, unintended overlap or overflow remains', claims > 0 AND defects = 0,
    CASE WHEN claims = 0 THEN 'not shown: no claim counts for the checkpoint'
         ELSE defects || ' claim(s) with clipping, overlap or escape' END FROM facts
UNION ALL SELECT 6, 'every reliably measured significant drift is under 5 px', spatial > 0 AND drifts = 0,
    CASE WHEN spatial = 0 THEN 'not shown: no spatial claim counts for the checkpoint (jfi verify measure, then import)'
         ELSE drifts || ' significant region(s) drift 5 px or more' END FROM facts
UNION ALL SELECT 7, 'every visually significant failure is fixed', visual > 0 AND visual_fails = 0,
    CASE WHEN visual = 0
        THEN 'not shown: no external visual claim counts for the checkpoint, so nothing says the failures are fixed'
         ELSE visual_fails || ' significant visual FAIL(s) remain' END FROM facts
UNION ALL SELECT 8, 'a checkpoint was verified after the last material edit',
    cp_version IS NOT NULL AND cp_version = latest_version AND edited_count = 0 AND claims > 0,
    CASE WHEN claims = 0 THEN 'no claim counts for the latest checkpoint' WHEN edited_count > 0
        THEN 'files changed after verification'
         ELSE claims || ' claim(s) verified version ' || cp_version END FROM facts
UNION ALL SELECT 9, 'that checkpoint is ACCEPTED', coalesce(state = 'ACCEPTED', false), 'state ' || coalesce(state,
    'none') FROM facts
UNION ALL SELECT 10, 'the final summary can be printed', cp_id IS NOT NULL AND spatial > 0 AND visual > 0,
    CASE WHEN cp_id IS NULL THEN 'no checkpoint'
        ELSE 'checkpoint, inputs, tools, spatial and visual results on record' END FROM facts
ORDER BY ord;
