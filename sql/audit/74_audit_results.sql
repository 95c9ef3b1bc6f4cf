-- audit_results: one row per unit and rule that says something about it — each flag it carries, and the question its row asks — with an outcome in the terms other tools read (EARL, SARIF, JUnit, the CI gate). Drafts are never verdicts: a question is cantTell until a named person ratifies it
--   fingerprint: the result's stable id across runs: the unit id and the flag (or question-<type>), joined by |
--   id: unit id
--   type: unit type
--   product: product
--   views: the views it appears on
--   selector: CSS path of the element (NULL for a title or an identification row)
--   name: the unit's name
--   rule: the rule in audit_rule_metadata: the flag's rule id (N, SOURCE, EXT in it stand for what the flag names), or question-<type> for the question
--   flag: the flag as the unit carries it (NULL for a question)
--   kind: flag or question
--   objective: a flag that states a fact the browser's tree shows (it fails by itself)
--   decisive: a question, or a flag that counts (not informational)
--   outcome: failed (an objective flag; a question ratified no), passed (a question ratified yes), cantTell (any other flag; a question not ratified, whatever its draft)
--   mode: automatic (a flag, asserted by jfi) or manual (a ratified question, asserted by its ratifier); NULL while cantTell for a question
--   ratified_by: who ratified the question (NULL otherwise)
--   ratified_utc: when
--   ruling: the family ruling that decided it (empty when none)
--   decision_id: the ledger decision in force
--   draft_judgment: the judge's draft (information only; never an outcome)
--   sc: the WCAG success criteria of the rule (the unit's own criterion for an axe-core finding)
--   act_rule: the ACT rule id (NULL where none)
--   help_url: the W3C Understanding page (NULL where none)
--   tags: wcag and act tags
--   wcag_ids: the criteria's ids in WCAG 2.2
--   meaning: what the flag says (its N the flag's own number), or the question in words
CREATE OR REPLACE VIEW audit_results AS
WITH rows AS (
    SELECT d.id, d.type, d.product, d.views, d.selector, d.name, d.sc AS unit_sc, d.flags, d.draft_judgment,
        d.ratification_state = 'RATIFIED' AS ratified,
        CASE WHEN d.ratification_state = 'RATIFIED' AND d.ratified_judgment IN ('yes', 'no')
            THEN d.ratified_judgment END AS verdict,
        d.ratified_by, d.ratified_utc, d.ruling, d.ratification_decision_id
    FROM audit_draft_rows AS d
),
flags AS (
    SELECT r.*, m.*
    FROM (SELECT *, unnest(flags) AS flag FROM rows) AS r
    JOIN (SELECT DISTINCT flag AS rule_id, pattern FROM audit_flag_rules) AS p ON regexp_full_match(r.flag, p.pattern)
    JOIN audit_rule_metadata AS m ON m.rule = p.rule_id
),
questions AS (
    SELECT r.*, m.*
    FROM rows AS r JOIN audit_rule_metadata AS m ON m.rule = 'question-' || r.type
)
SELECT id || '|' || flag AS fingerprint, id, type, product, views, selector, name, rule, flag, 'flag' AS kind,
    objective, NOT informational AS decisive,
    CASE WHEN objective THEN 'failed' ELSE 'cantTell' END AS outcome, 'automatic' AS mode,
    NULL AS ratified_by, NULL AS ratified_utc, NULL AS ruling, NULL AS decision_id, draft_judgment,
    CASE WHEN len(sc) = 0 AND unit_sc <> '' THEN [unit_sc] ELSE sc END AS sc, act_rule, help_url, tags, wcag_ids,
    flag_meaning(rule, meaning, flag) AS meaning
FROM flags
UNION ALL
SELECT id || '|' || rule, id, type, product, views, selector, name, rule, NULL, 'question', false, true,
    CASE verdict WHEN 'no' THEN 'failed' WHEN 'yes' THEN 'passed' ELSE 'cantTell' END,
    CASE WHEN verdict IS NOT NULL THEN 'manual' END,
    CASE WHEN ratified THEN ratified_by END, CASE WHEN ratified THEN ratified_utc END, CASE WHEN ratified
        THEN ruling END,
    CASE WHEN ratified THEN ratification_decision_id END, draft_judgment,
    CASE WHEN len(sc) = 0 AND unit_sc <> '' THEN [unit_sc] ELSE sc END, act_rule, help_url, tags, wcag_ids, meaning
FROM questions;
