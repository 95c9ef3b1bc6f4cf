-- audit_receipts: findings for bug reports and conformance reports: only rows a named person RATIFIED as no (a draft is never an input; a ratified yes is sample evidence only and never a "supports")
--   id: unit id
--   product: product
--   type: unit type
--   sc: WCAG success criterion
--   name: name
--   selector: CSS path
--   href: href or src
--   views: the views it appears on
--   fix: the fix the judge proposed
--   ratifier_note: the ratifier's note
--   ruling: the family ruling that decided it
--   ratified_by: who ratified it
--   ratified_utc: when
--   decision_id: the decision id in force
--   drafted_by: who drafted the judgment
CREATE OR REPLACE VIEW audit_receipts AS
SELECT id, product, type, sc, name, selector, href, views, fix, ratifier_note, ruling, ratified_by, ratified_utc,
    ratification_decision_id AS decision_id, drafted_by
FROM audit_draft_rows
WHERE status = 'RATIFIED' AND ratified_judgment = 'no'
ORDER BY sort_ord;
