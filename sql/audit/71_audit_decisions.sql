-- audit_decisions: every row not yet ratified and the one decision that settles it: its worklist family (one answer for all its rows), else its fact class (signed once), else the row itself; nothing is left out, and no row is in two decisions
--   id: unit id
--   type: unit type
--   kind: family, fact_class or row
--   decision: the family id, FACT:<class>, or the unit id
CREATE OR REPLACE VIEW audit_decisions AS
WITH open AS (SELECT id, type, sort_ord FROM audit_draft_rows WHERE status <> 'RATIFIED'),
families AS (SELECT unnest(unit_ids) AS id, family_id FROM audit_worklist_families),
facts AS (SELECT id, min(fact_class) AS fact_class
          FROM (SELECT unnest(unit_ids) AS id, fact_class FROM audit_worklist_facts) GROUP BY id)
SELECT o.id, o.type,
    CASE WHEN f.family_id IS NOT NULL THEN 'family' WHEN c.fact_class IS NOT NULL THEN 'fact_class'
        ELSE 'row' END AS kind,
    coalesce(f.family_id, 'FACT:' || c.fact_class, o.id) AS decision
FROM open AS o LEFT JOIN families AS f USING (id) LEFT JOIN facts AS c USING (id)
ORDER BY o.sort_ord;
