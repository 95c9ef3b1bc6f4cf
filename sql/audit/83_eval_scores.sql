-- eval_scores: one row per run and expectation tier (must, calibration): recall on expected no, false alarms on expected yes, unsure against the row, missing judgments and the rationale checks
--   run: the run
--   label: its label
--   tier: the run's model tier
--   draw: the run's draw
--   row_tier: must or calibration
--   rows: scored rows
--   expected_no: rows whose right judgment is no
--   found: of those, judged no (or unsure where unsure is allowed)
--   recall: found / expected_no (NULL without expected no rows)
--   expected_yes: rows whose right judgment is yes
--   false_alarms: of those, judged no
--   false_alarm_rate: false_alarms / expected_yes (NULL without expected yes rows)
--   unsure_against: unsure where it is not allowed
--   missing: rows with no judgment (an unmatched or ambiguous expectation counts here)
--   inventions: rationales naming a phrase the row does not show
--   evidence_missing: rationales that leave out a phrase they should name
--   right: rows judged right
CREATE OR REPLACE VIEW eval_scores AS
SELECT x.run, any_value(r.label) AS label, any_value(r.tier) AS tier, any_value(r.draw) AS draw, x.tier AS row_tier,
    count(*) AS rows,
    count(*) FILTER (WHERE x.expected = 'no') AS expected_no,
    count(*) FILTER (WHERE x.expected = 'no' AND x.right) AS found,
    CASE WHEN count(*) FILTER (WHERE x.expected = 'no') > 0
         THEN count(*) FILTER (WHERE x.expected = 'no'
             AND x.right) / count(*) FILTER (WHERE x.expected = 'no') END AS recall,
    count(*) FILTER (WHERE x.expected = 'yes') AS expected_yes,
    count(*) FILTER (WHERE x.outcome = 'false_alarm') AS false_alarms,
    CASE WHEN count(*) FILTER (WHERE x.expected = 'yes') > 0
         THEN count(*) FILTER (WHERE x.outcome = 'false_alarm') / count(*) FILTER (WHERE x.expected = 'yes') END AS false_alarm_rate,
    count(*) FILTER (WHERE x.outcome = 'unsure') AS unsure_against,
    count(*) FILTER (WHERE x.outcome = 'missing') AS missing,
    count(*) FILTER (WHERE len(x.invention) > 0) AS inventions,
    count(*) FILTER (WHERE len(x.evidence_missing) > 0) AS evidence_missing,
    count(*) FILTER (WHERE x.right) AS right
FROM eval_results AS x JOIN eval_runs AS r USING (run)
GROUP BY x.run, x.tier
ORDER BY x.run, list_position(['must', 'calibration'], x.tier);
