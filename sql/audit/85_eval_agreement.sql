-- eval_agreement: one row per pair of model runs: draws of one tier, or tier against tier: the rows both judged, how many alike, and the rows they split on
--   run_a: the first run
--   run_b: the second run
--   label_a: its label
--   label_b: the other's label
--   kind: draws (same tier) or tiers
--   both_judged: rows both runs judged
--   agree: rows judged alike
--   agreement: agree / both_judged (NULL when none)
--   disagree: the units judged differently
CREATE OR REPLACE VIEW eval_agreement AS
SELECT a.run AS run_a, b.run AS run_b, ra.label AS label_a, rb.label AS label_b,
    CASE WHEN ra.tier = rb.tier THEN 'draws' ELSE 'tiers' END AS kind,
    count(*) FILTER (WHERE a.judgment IS NOT NULL AND b.judgment IS NOT NULL) AS both_judged,
    count(*) FILTER (WHERE a.judgment = b.judgment) AS agree,
    CASE WHEN count(*) FILTER (WHERE a.judgment IS NOT NULL AND b.judgment IS NOT NULL) > 0
         THEN count(*) FILTER (WHERE a.judgment = b.judgment)
              / count(*) FILTER (WHERE a.judgment IS NOT NULL AND b.judgment IS NOT NULL) END AS agreement,
    coalesce(list(a.unit_id ORDER BY a.row_key) FILTER (WHERE a.judgment <> b.judgment), []) AS disagree
FROM eval_results AS a
JOIN eval_results AS b ON b.row_key = a.row_key AND b.run > a.run
JOIN eval_runs AS ra ON ra.run = a.run
JOIN eval_runs AS rb ON rb.run = b.run
WHERE a.run > 0
GROUP BY a.run, b.run, ra.label, rb.label, ra.tier, rb.tier
ORDER BY kind, a.run, b.run;
