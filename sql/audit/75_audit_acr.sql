-- audit_wcag22: every success criterion of WCAG 2.2 by level (with 4.1.1 Parsing, which the VPAT 2.5 WCAG 2.2 edition still lists): the rows of a conformance report
--   sc: success criterion number
--   level: A, AA or AAA
--   ord: its place in the report
-- audit_acr: one row per WCAG 2.2 success criterion: how the audit's ratified rows answer it, for a conformance report (OpenACR). Only questions a named person ratified count; drafts and flags never do
--   sc: success criterion number
--   level: A, AA or AAA
--   evaluated: whether jfi asks a question for it
--   ratified: rows of it a person ratified yes or no
--   passed: rows ratified yes
--   failed: rows ratified no
--   drafts: rows of it not ratified (they count for nothing)
--   failing: the unit ids ratified no (the receipts hold their findings)
--   adherence: supports (every ratified row passes), partially-supports (some fail), does-not-support (every ratified row fails) or not-evaluated (jfi asks nothing about it, or no row of it is ratified)
--   notes: the remarks: what the ratified rows say, with the failing ids
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
WITH asked AS (SELECT DISTINCT unnest(sc) AS sc FROM audit_rule_metadata WHERE kind = 'question'),
rows AS (SELECT unnest(sc) AS sc, id, outcome FROM audit_results WHERE kind = 'question'),
tally AS (
    SELECT sc, count(*) FILTER (WHERE outcome <> 'cantTell') AS ratified, count(*) FILTER (WHERE outcome = 'passed') AS passed,
        count(*) FILTER (WHERE outcome = 'failed') AS failed, count(*) FILTER (WHERE outcome = 'cantTell') AS drafts,
        coalesce(list(id ORDER BY id) FILTER (WHERE outcome = 'failed'), []) AS failing
    FROM rows GROUP BY sc
)
SELECT w.sc, w.level, a.sc IS NOT NULL AS evaluated, coalesce(t.ratified, 0) AS ratified, coalesce(t.passed, 0) AS passed,
    coalesce(t.failed, 0) AS failed, coalesce(t.drafts, 0) AS drafts, coalesce(t.failing, []) AS failing,
    CASE WHEN coalesce(t.ratified, 0) = 0 THEN 'not-evaluated' WHEN t.failed = 0 THEN 'supports'
         WHEN t.passed = 0 THEN 'does-not-support' ELSE 'partially-supports' END AS adherence,
    CASE WHEN a.sc IS NULL THEN 'Not evaluated: jfi asks no question about this criterion.'
         WHEN coalesce(t.ratified, 0) = 0 THEN format('Not evaluated yet: none of the {} row(s) jfi asks about it is ratified (drafts do not count).', coalesce(t.drafts, 0))
         ELSE format('{} of {} ratified row(s) pass{}.{}', t.passed, t.ratified,
                     CASE WHEN t.failed > 0 THEN format('; {} fail: {}{} (their findings are in receipts.csv)', t.failed,
                          array_to_string(t.failing[1:10], ', '), CASE WHEN t.failed > 10 THEN format(' and {} more', t.failed - 10) ELSE '' END) ELSE '' END,
                     CASE WHEN t.drafts > 0 THEN format(' {} row(s) not yet ratified do not count.', t.drafts) ELSE '' END) END AS notes
FROM audit_wcag22 AS w LEFT JOIN asked AS a USING (sc) LEFT JOIN tally AS t USING (sc)
ORDER BY w.ord;
