-- audit_receipts: findings for bug reports and conformance reports: only rows a named person RATIFIED as no (a draft is never an input; a ratified yes is sample evidence only and never a "supports")
--   id: unit id
--   product: product
--   type: unit type
--   sc: WCAG success criterion
--   name: name
--   selector: CSS path
--   href: href or src
--   views: the views it appears on
--   fix: the fix the ratifier asked for, else the one the judge proposed
--   ratifier_note: the ratifier's note
--   ruling: the family ruling that decided it
--   ratified_by: who ratified it
--   ratified_utc: when
--   decision_id: the decision id in force
--   drafted_by: who drafted the judgment
CREATE OR REPLACE VIEW audit_receipts AS
SELECT d.id, d.product, d.type, d.sc, d.name, d.selector, d.href, d.views, coalesce(nullif(e.fix, ''), d.fix) AS fix,
    d.ratifier_note, d.ruling, d.ratified_by, d.ratified_utc, d.ratification_decision_id AS decision_id, d.drafted_by
FROM audit_draft_rows AS d
LEFT JOIN ratification_effective AS e ON e.scope = 'wcag' AND e.id = d.id
WHERE d.status = 'RATIFIED' AND d.ratified_judgment = 'no'
ORDER BY d.sort_ord;
