-- eval_judgments: one row per run and unit: the judgment it scores (a run's last line for the unit wins), and for run 0 the flags-only baseline: no where a non-informational flag fired, yes otherwise
--   run: the run (0: flags-only baseline)
--   id: the unit id
--   judgment: yes, no or unsure
--   rationale: the judge's rationale (the baseline's: the flags that fired)
-- eval_results: one row per run and scored row: the judgment, whether it is right, what kind of wrong, and the rationale checks
--   run: the run
--   row_key: the scored row
--   unit_id: the unit
--   tier: must or calibration
--   expected: yes or no
--   judgment: the run's judgment (NULL when missing)
--   outcome: right, miss (a yes given where no is right), false_alarm (a no given where yes is right), unsure (not allowed here), missing
--   right: whether the judgment counts as right (unsure counts when unsure_ok)
--   invention: the evidence_absent phrases the rationale names (empty when none, and for the baseline)
--   evidence_missing: the evidence_contains phrases the rationale does not name
--   pattern_group: the row's pattern group
--   note: the expectation's note
CREATE OR REPLACE VIEW eval_judgments AS
WITH judged AS (
    SELECT round AS run, jstr(doc, '$.id') AS id, jstr(doc, '$.judgment') AS judgment, jstr(doc,
        '$.rationale') AS rationale,
        row_number() OVER (PARTITION BY round, jstr(doc, '$.id') ORDER BY source DESC, line DESC) AS nth
    FROM jsonl_records WHERE kind = 'eval_judged' AND is_object
),
fired AS (
    SELECT u.id, list(DISTINCT f.flag ORDER BY f.flag) FILTER (WHERE NOT r.informational) AS counted
    FROM (SELECT id, unnest(flags) AS flag FROM audit_built_units) AS f
    JOIN audit_built_units AS u USING (id)
    JOIN audit_flag_rules AS r ON regexp_full_match(f.flag, r.pattern) AND r.type = u.type
    GROUP BY u.id
)
SELECT run, id, judgment, rationale FROM judged WHERE nth = 1 AND id IS NOT NULL
UNION ALL
SELECT 0, u.id, CASE WHEN len(coalesce(f.counted, [])) > 0 THEN 'no' ELSE 'yes' END,
    coalesce(array_to_string(f.counted, ', '), '')
FROM audit_built_units AS u LEFT JOIN fired AS f USING (id)
WHERE EXISTS (SELECT 1 FROM eval_runs WHERE run = 0);

CREATE OR REPLACE VIEW eval_results AS
SELECT r.run, e.row_key, e.unit_id, e.tier, e.expected, j.judgment,
    CASE WHEN j.judgment IS NULL THEN 'missing'
         WHEN j.judgment = e.expected OR (j.judgment = 'unsure' AND e.unsure_ok) THEN 'right'
         WHEN j.judgment = 'unsure' THEN 'unsure'
         WHEN e.expected = 'yes' THEN 'false_alarm'
         ELSE 'miss' END AS outcome,
    j.judgment IS NOT NULL AND (j.judgment = e.expected OR (j.judgment = 'unsure' AND e.unsure_ok)) AS right,
    CASE WHEN j.judgment IS NULL OR r.run = 0 THEN []  -- the baseline has no rationale to check
         ELSE list_filter(e.evidence_absent, lambda p: contains(lower(coalesce(j.rationale, '')),
             lower(p))) END AS invention,
    CASE WHEN j.judgment IS NULL OR r.run = 0 THEN []
         ELSE list_filter(e.evidence_contains, lambda p: NOT contains(lower(coalesce(j.rationale, '')),
             lower(p))) END AS evidence_missing,
    e.pattern_group, e.note
FROM eval_runs AS r
CROSS JOIN (SELECT * FROM eval_rows WHERE excluded IS NULL) AS e
LEFT JOIN eval_judgments AS j ON j.run = r.run AND j.id = e.unit_id AND e.problem IS NULL
ORDER BY r.run, e.row_key;
