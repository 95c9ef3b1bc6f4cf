-- audit_wcag22: every success criterion of WCAG 2.2 by level (with 4.1.1 Parsing, which the VPAT 2.5 WCAG 2.2 edition still lists): the rows of a conformance report
--   sc: success criterion number
--   level: A, AA or AAA
--   ord: its place in the report
-- audit_acr: one row per WCAG 2.2 success criterion: what the audit may say of it in a conformance report (OpenACR), by the workflow's own rule: only a ratified no travels (a finding, with its receipts); a ratified yes is evidence of no defect in the captured sample only and never makes a criterion supported; drafts and flags count for nothing
--   sc: success criterion number
--   level: A, AA or AAA
--   evaluated: whether any row of the audit asks about it (a question of jfi's, or an axe-core finding's)
--   ratified: rows of it a person ratified yes or no
--   passed: rows ratified yes (sample-scoped: no defect in what was captured)
--   failed: rows ratified no
--   drafts: rows of it not ratified (they count for nothing)
--   failing: the unit ids ratified no (the receipts hold their findings)
--   state: finding (a row ratified no), sampled (rows ratified, all yes), or undecided (no row of it ratified): the report's author turns these into the catalogue's terms (audit.toml [acr])
--   notes: the remarks: the failing ids, or what was sampled and that it is no claim of support
CREATE OR REPLACE TABLE audit_wcag22 AS
SELECT sc, level, row_number() OVER () AS ord FROM (VALUES
    ('1.1.1', 'A'), ('1.2.1', 'A'), ('1.2.2', 'A'), ('1.2.3', 'A'), ('1.3.1', 'A'), ('1.3.2', 'A'),
    ('1.3.3', 'A'), ('1.4.1', 'A'), ('1.4.2', 'A'), ('2.1.1', 'A'), ('2.1.2', 'A'), ('2.1.4', 'A'),
    ('2.2.1', 'A'), ('2.2.2', 'A'), ('2.3.1', 'A'), ('2.4.1', 'A'), ('2.4.2', 'A'), ('2.4.3', 'A'),
    ('2.4.4', 'A'), ('2.5.1', 'A'), ('2.5.2', 'A'), ('2.5.3', 'A'), ('2.5.4', 'A'), ('3.1.1', 'A'),
    ('3.2.1', 'A'), ('3.2.2', 'A'), ('3.2.6', 'A'), ('3.3.1', 'A'), ('3.3.2', 'A'), ('3.3.7', 'A'),
    ('4.1.1', 'A'), ('4.1.2', 'A'), ('1.2.4', 'AA'), ('1.2.5', 'AA'), ('1.3.4', 'AA'), ('1.3.5', 'AA'),
    ('1.4.3', 'AA'), ('1.4.4', 'AA'), ('1.4.5', 'AA'), ('1.4.10', 'AA'), ('1.4.11', 'AA'), ('1.4.12', 'AA'),
    ('1.4.13', 'AA'), ('2.4.5', 'AA'), ('2.4.6', 'AA'), ('2.4.7', 'AA'), ('2.4.11', 'AA'), ('2.5.7', 'AA'),
    ('2.5.8', 'AA'), ('3.1.2', 'AA'), ('3.2.3', 'AA'), ('3.2.4', 'AA'), ('3.3.3', 'AA'), ('3.3.4', 'AA'),
    ('3.3.8', 'AA'), ('4.1.3', 'AA'), ('1.2.6', 'AAA'), ('1.2.7', 'AAA'), ('1.2.8', 'AAA'), ('1.2.9', 'AAA'),
    ('1.3.6', 'AAA'), ('1.4.6', 'AAA'), ('1.4.7', 'AAA'), ('1.4.8', 'AAA'), ('1.4.9', 'AAA'), ('2.1.3', 'AAA'),
    ('2.2.3', 'AAA'), ('2.2.4', 'AAA'), ('2.2.5', 'AAA'), ('2.2.6', 'AAA'), ('2.3.2', 'AAA'), ('2.3.3', 'AAA'),
    ('2.4.8', 'AAA'), ('2.4.9', 'AAA'), ('2.4.10', 'AAA'), ('2.4.12', 'AAA'), ('2.4.13', 'AAA'),
    ('2.5.5', 'AAA'), ('2.5.6', 'AAA'), ('3.1.3', 'AAA'), ('3.1.4', 'AAA'), ('3.1.5', 'AAA'), ('3.1.6', 'AAA'),
    ('3.2.5', 'AAA'), ('3.3.5', 'AAA'), ('3.3.6', 'AAA'), ('3.3.9', 'AAA')
) AS t(sc, level);

CREATE OR REPLACE VIEW audit_acr AS
WITH rows AS (SELECT unnest(sc) AS sc, id, outcome FROM audit_results WHERE kind = 'question'),
asked AS (SELECT DISTINCT sc FROM rows),
tally AS (
    SELECT sc, count(*) FILTER (WHERE outcome <> 'cantTell') AS ratified,
        count(*) FILTER (WHERE outcome = 'passed') AS passed,
        count(*) FILTER (WHERE outcome = 'failed') AS failed, count(*) FILTER (WHERE outcome = 'cantTell') AS drafts,
        coalesce(list(id ORDER BY id) FILTER (WHERE outcome = 'failed'), []) AS failing
    FROM rows GROUP BY sc
)
SELECT w.sc, w.level, a.sc IS NOT NULL AS evaluated, coalesce(t.ratified, 0) AS ratified, coalesce(t.passed,
    0) AS passed,
    coalesce(t.failed, 0) AS failed, coalesce(t.drafts, 0) AS drafts, coalesce(t.failing, []) AS failing,
    CASE WHEN coalesce(t.failed, 0) > 0 THEN 'finding' WHEN coalesce(t.ratified, 0) > 0 THEN 'sampled'
         ELSE 'undecided' END AS state,
    CASE WHEN coalesce(t.failed, 0) > 0 THEN
             format('{} row(s) a named person ratified no: {}{} (their findings and fixes are in receipts.csv).',
                 t.failed,
                    array_to_string(t.failing[1:10], ', '), CASE WHEN t.failed > 10 THEN format(' and {} more',
                        t.failed - 10) ELSE '' END)
         WHEN coalesce(t.ratified, 0) > 0 THEN
             format('{} ratified row(s) show no defect in the captured sample only; that is no claim of support.',
                 t.passed)
         WHEN a.sc IS NOT NULL THEN
             format('The audit asks about it, but no row of it is ratified ({} draft(s) count for nothing).',
                 coalesce(t.drafts, 0))
         ELSE 'The audit does not test this criterion.' END AS notes
FROM audit_wcag22 AS w LEFT JOIN asked AS a USING (sc) LEFT JOIN tally AS t USING (sc)
ORDER BY w.ord;
