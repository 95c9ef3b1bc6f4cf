-- eval_verdicts: one row per model tier: promoted only when, in every draw, must-tier recall and false-alarm rate meet the bar and no rationale invents; otherwise detector only, with the reasons
--   tier: the model tier
--   draws: its runs' labels
--   promoted: whether the tier may draft
--   verdict: promoted or detector only
--   reasons: why not, draw by draw (empty when promoted)
CREATE OR REPLACE VIEW eval_verdicts AS
WITH s AS (SELECT * FROM eval_settings LIMIT 1),
per_draw AS (
    SELECT r.run, r.label, r.tier,
        m.recall, m.false_alarm_rate, m.expected_no, m.expected_yes,
        (SELECT sum(inventions) FROM eval_scores AS x WHERE x.run = r.run) AS inventions
    FROM eval_runs AS r LEFT JOIN eval_scores AS m ON m.run = r.run AND m.row_tier = 'must'
    WHERE r.run > 0
),
reasons AS (
    SELECT d.tier, d.label, d.run, x.reason
    FROM per_draw AS d, s,
    LATERAL (
        SELECT d.label || ': must recall ' || coalesce(printf('%.2f', d.recall), 'n/a (no expected no rows)') || ' < '
            || printf('%.2f', s.recall_min) AS reason
        WHERE d.recall IS NULL OR d.recall < s.recall_min
        UNION ALL
        SELECT d.label || ': must false-alarm rate ' || coalesce(printf('%.2f', d.false_alarm_rate),
            'n/a (no expected yes rows)') || ' > ' || printf('%.2f', s.false_alarm_max)
        WHERE d.false_alarm_rate IS NULL OR d.false_alarm_rate > s.false_alarm_max
        UNION ALL
        SELECT d.label || ': ' || coalesce(d.inventions, 0)
            || ' rationale(s) invent (name a phrase the row does not show)'
        WHERE coalesce(d.inventions, 0) > s.inventions_max
    ) AS x
)
SELECT d.tier, list(d.label ORDER BY d.run) AS draws,
    NOT EXISTS (SELECT 1 FROM reasons AS r WHERE r.tier = d.tier) AS promoted,
    CASE WHEN NOT EXISTS (SELECT 1 FROM reasons AS r WHERE r.tier = d.tier) THEN 'promoted'
        ELSE 'detector only' END AS verdict,
    coalesce((SELECT list(r.reason ORDER BY r.run, r.reason) FROM reasons AS r WHERE r.tier = d.tier), []) AS reasons
FROM per_draw AS d
GROUP BY d.tier
ORDER BY min(d.run);
