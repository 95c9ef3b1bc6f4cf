-- verify_broad_claims: phrases that make a claim too broad to falsify; such claims are refused
--   phrase: a lower-case regular expression
-- verify_artifact_files: every file of every artifact version (from artifacts.jsonl)
--   version_id: the artifact version
--   pos: the version's place in the ledger (1 = first)
--   created_utc: when it was snapshotted
--   path: file path
--   sha256: its sha256 then
-- verify_checkpoints: every checkpoint (from checkpoints.jsonl)
--   checkpoint_id: content-derived id
--   pos: its place in the ledger
--   version_id: the artifact version it checkpoints
--   screenshot_path: its screenshot
--   screenshot_sha256: the screenshot's sha256
--   changes: changes since the previous checkpoint
--   known_issues: issues known at the checkpoint
--   created_utc: when
-- verify_claims: every imported claim (from claims.jsonl)
--   pos: its place in the ledger
--   claim: the statement
--   kind: spatial, visual, completion or other
--   significant: whether it is significant (default true)
--   verifier: tool or external model id
--   result: PASS, FAIL or INSUFFICIENT
--   evidence: the evidence
--   inputs: its inputs [{role, path, sha256}]
--   clipped: measured clipping
--   overlapping: measured new overlaps
--   escaped: measured escape past the page
--   drift_failed: whether a significant edge drifted drift_limit_px() (5 px) or more
CREATE OR REPLACE TABLE verify_broad_claims AS
SELECT * FROM (VALUES ('^the (page|site|screen|ui|output) (is|looks) (correct|right|fine|good|ok|okay|done)\.?$'),
    ('^(it |everything |all )?(looks|seems|is) (good|fine|ok|okay|correct|right|great)\.?$'),
    ('^the tool output is (fine|ok|okay|correct|good)\.?$'), ('^(everything|it|all) works\.?$'),
    ('^(matches|looks like) the (design|reference|mock-?up)\.?$'), ('^no (issues|problems)( found)?\.?$')) AS t(phrase);

CREATE OR REPLACE VIEW verify_artifact_files AS
WITH versions AS (
    SELECT jstr(doc, '$.version_id') AS version_id, row_number() OVER (ORDER BY line) AS pos,
        jstr(doc, '$.created_utc') AS created_utc,
        json_transform(doc -> '$.files', '[{"path": "VARCHAR", "sha256": "VARCHAR"}]') AS files
    FROM jsonl_records WHERE kind = 'verify_artifact' AND is_object
),
files AS (SELECT version_id, pos, created_utc, unnest(files) AS f FROM versions)
SELECT version_id, pos, created_utc, f.path AS path, f.sha256 AS sha256 FROM files;

CREATE OR REPLACE VIEW verify_checkpoints AS
SELECT jstr(doc, '$.checkpoint_id') AS checkpoint_id, row_number() OVER (ORDER BY line) AS pos,
    jstr(doc, '$.version_id') AS version_id, jstr(doc, '$.screenshot.path') AS screenshot_path,
    jstr(doc, '$.screenshot.sha256') AS screenshot_sha256, coalesce(jstr(doc, '$.changes'), '') AS changes,
    coalesce(jstr(doc, '$.known_issues'), '') AS known_issues, jstr(doc, '$.created_utc') AS created_utc
FROM jsonl_records WHERE kind = 'verify_checkpoint' AND is_object;

CREATE OR REPLACE VIEW verify_claims AS
SELECT line AS pos, jstr(doc, '$.claim') AS claim, jstr(doc, '$.kind') AS kind,
    coalesce(jbool(doc, '$.significant'), true) AS significant, jstr(doc, '$.verifier') AS verifier,
    jstr(doc, '$.result') AS result, jstr(doc, '$.evidence') AS evidence,
    json_transform(doc -> '$.inputs', '[{"role": "VARCHAR", "path": "VARCHAR", "sha256": "VARCHAR"}]') AS inputs,
    coalesce(jbool(doc, '$.clipped'), false) AS clipped,
    coalesce(CAST(json_transform(doc -> '$.overlaps', '["VARCHAR"]') AS VARCHAR[]), []) AS overlapping,
    coalesce(jbool(doc, '$.escapes'), false) AS escaped,
    coalesce(greatest(abs(TRY_CAST(doc ->> '$.drift.left' AS DOUBLE)), abs(TRY_CAST(doc ->> '$.drift.top' AS DOUBLE)),
        abs(TRY_CAST(doc ->> '$.drift.right' AS DOUBLE)),
            abs(TRY_CAST(doc ->> '$.drift.bottom' AS DOUBLE))) >= drift_limit_px(), false)
        AND coalesce(jbool(doc, '$.significant'), true) AS drift_failed
FROM jsonl_records WHERE kind = 'verify_claim' AND is_object;
