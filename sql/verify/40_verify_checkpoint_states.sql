-- verify_valid_evidence: the claims that count for each checkpoint: every input's path and hash is a file of that checkpoint's artifact version (a screenshot of old code verifies nothing)
--   checkpoint_id: checkpoint
--   pos: the claim's place in the ledger
--   claim: statement
--   kind: spatial, visual, completion or other
--   significant: whether it is significant
--   verifier: tool or model
--   result: PASS, FAIL or INSUFFICIENT
--   evidence: evidence
--   clipped: measured clipping
--   overlapping: measured new overlaps
--   escaped: measured escape
--   drift_failed: a significant edge drifted 5 px or more
-- verify_checkpoint_states: the state SQL derives for every checkpoint from the evidence that counts for it
--   checkpoint_id: checkpoint
--   pos: its place in the ledger
--   version_id: its artifact version
--   state: ACCEPTED (a passed spatial and a passed visual verification, no FAIL, no INSUFFICIENT on a completion condition or significant spatial claim), REJECTED (a FAIL), INSUFFICIENT, or CANDIDATE
--   claims: claims that count for it
--   passes: of which PASS
--   fails: of which FAIL
--   insufficient: of which INSUFFICIENT
CREATE OR REPLACE VIEW verify_valid_evidence AS
WITH claim_inputs AS (SELECT pos, unnest(inputs) AS i FROM verify_claims WHERE len(inputs) > 0),
matched AS (
    SELECT c.checkpoint_id, ci.pos, count(DISTINCT ci.i.path) AS n
    FROM verify_checkpoints AS c
    JOIN verify_artifact_files AS f ON f.version_id = c.version_id
    JOIN claim_inputs AS ci ON ci.i.path = f.path AND ci.i.sha256 = f.sha256
    GROUP BY c.checkpoint_id, ci.pos
)
SELECT m.checkpoint_id, cl.pos, cl.claim, cl.kind, cl.significant, cl.verifier, cl.result, cl.evidence, cl.clipped,
    cl.overlapping, cl.escaped, cl.drift_failed
FROM matched AS m JOIN verify_claims AS cl USING (pos)
WHERE m.n = len(list_distinct(list_transform(cl.inputs, lambda x: x.path)));

CREATE OR REPLACE VIEW verify_checkpoint_states AS
SELECT c.checkpoint_id, c.pos, c.version_id,
    CASE WHEN count(e.pos) FILTER (WHERE e.result = 'FAIL') > 0 THEN 'REJECTED'
         WHEN count(e.pos) FILTER (WHERE e.result = 'INSUFFICIENT' AND (e.kind = 'completion' OR (e.kind = 'spatial'
             AND e.significant))) > 0 THEN 'INSUFFICIENT'
         WHEN count(e.pos) FILTER (WHERE e.kind = 'spatial' AND e.result = 'PASS') > 0
              AND count(e.pos) FILTER (WHERE e.kind = 'visual' AND e.result = 'PASS') > 0 THEN 'ACCEPTED'
         ELSE 'CANDIDATE' END AS state,
    count(e.pos) AS claims, count(e.pos) FILTER (WHERE e.result = 'PASS') AS passes,
    count(e.pos) FILTER (WHERE e.result = 'FAIL') AS fails,
    count(e.pos) FILTER (WHERE e.result = 'INSUFFICIENT') AS insufficient
FROM verify_checkpoints AS c LEFT JOIN verify_valid_evidence AS e USING (checkpoint_id)
GROUP BY c.checkpoint_id, c.pos, c.version_id
ORDER BY c.pos;
