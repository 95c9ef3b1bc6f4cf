-- audit_ruling_records: the ledger records one ruling appends (a temporary table macro, made by the command that rules: audit_ruling_records(FAMILY, FACT_CLASS, RULING, SENTENCE, BY, JUDGMENT, UTC, FIX), FAMILY or FACT_CLASS NULL): one wcag record per open row of the family (or of the fact class, named or by one of its flags), in the family's order, each naming the ruling and carrying its sentence; a row already decided is superseded by it, with the ruling as the reason. The pin and the decision id are the records' content digests, added as they are written
--   n: the row's place in the family
--   id: unit id
--   scope: wcag
--   ratified_by: who rules
--   ratified_judgment: the ruling's judgment
--   ratifier_note: the ruling's sentence
--   ratified_utc: when
--   ruling: the ruling's name
--   fix: the fix the ruling asks for (absent when none)
--   supersedes: the decision in force the record replaces (absent when none)
--   supersession_reason: family ruling RULING (absent when nothing is superseded)
CREATE OR REPLACE TEMP MACRO audit_ruling_records(family, fact_class_or_flag, ruling, sentence, by_name, judgment, utc,
    fix) AS TABLE
WITH found AS (  -- the family, or the first fact class the name or flag matches
    SELECT unit_ids FROM (
        SELECT unit_ids, 0 AS o FROM audit_worklist_families WHERE family_id = family
        UNION ALL
        SELECT f.unit_ids, row_number() OVER (ORDER BY f.fact_class) AS o
        FROM audit_worklist_facts AS f JOIN audit_fact_classes AS c USING (fact_class)
        WHERE f.fact_class = fact_class_or_flag OR regexp_full_match(fact_class_or_flag, c.pattern)
    ) ORDER BY o LIMIT 1
),
rows AS (SELECT unnest(unit_ids) AS id, generate_subscripts(unit_ids, 1) AS n FROM found)
SELECT r.n, r.id, 'wcag' AS scope, by_name AS ratified_by, judgment AS ratified_judgment, sentence AS ratifier_note,
    utc AS ratified_utc, ruling AS ruling, nullif(trim(fix), '') AS fix, e.decision_id AS supersedes,
    CASE WHEN e.decision_id IS NOT NULL THEN 'family ruling ' || ruling END AS supersession_reason
FROM rows AS r LEFT JOIN ratification_effective AS e ON e.id = r.id AND e.scope = 'wcag'
ORDER BY r.n;
