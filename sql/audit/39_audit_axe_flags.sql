-- audit_axe_flags: the flags of the comparison with axe-core, in audit_flags' shape: one branch per rule of audit_flag_rules from 43 on (same ord and rule id), its condition plain SQL over its type's facts view. A finding says whether it is a violation or needs review, and whether jfi agrees; a jfi occurrence whose objective flag axe-core did not report says so
--   type: unit type
--   product: product
--   pos: position of the view
--   i: element (or axe node) index in the page
--   unit_key: dedupe key of the unit the occurrence belongs to
--   flag: the flag's name
--   ord: the rule's order
--   rule: the rule's id
CREATE OR REPLACE VIEW audit_axe_flags AS
-- 43 axe_violation: axe-core reports this element as failing its rule
SELECT type, product, pos, i, unit_key, 'axe_violation' AS flag, 43 AS ord, 'axe_violation' AS rule
FROM audit_finding_facts
WHERE outcome = 'violation'
UNION ALL
-- 44 axe_needs_review: axe-core could not decide on this element (an incomplete result)
SELECT type, product, pos, i, unit_key, 'axe_needs_review' AS flag, 44 AS ord, 'axe_needs_review' AS rule
FROM audit_finding_facts
WHERE outcome = 'incomplete'
UNION ALL
-- 45 jfi_agrees: jfi's own flag for the same failure fired on the same element
SELECT type, product, pos, i, unit_key, 'jfi_agrees' AS flag, 45 AS ord, 'jfi_agrees' AS rule
FROM audit_finding_facts
WHERE agreement = 'agrees'
UNION ALL
-- 46 jfi_disagrees: jfi captured the same element and its own flag for this failure did not fire
SELECT type, product, pos, i, unit_key, 'jfi_disagrees' AS flag, 46 AS ord, 'jfi_disagrees' AS rule
FROM audit_finding_facts
WHERE agreement = 'disagrees'
UNION ALL
-- 47 axe_disagrees (title): axe-core ran its rule for this failure on this view and did not report it
SELECT type, product, pos, i, unit_key, 'axe_disagrees' AS flag, 47 AS ord, 'axe_disagrees' AS rule
FROM audit_title_facts
WHERE (type, pos, i) IN (SELECT (type, pos, i) FROM audit_axe_unreported)
UNION ALL
-- 48 axe_disagrees (heading)
SELECT type, product, pos, i, unit_key, 'axe_disagrees' AS flag, 48 AS ord, 'axe_disagrees' AS rule
FROM audit_heading_facts
WHERE (type, pos, i) IN (SELECT (type, pos, i) FROM audit_axe_unreported)
UNION ALL
-- 49 axe_disagrees (link)
SELECT type, product, pos, i, unit_key, 'axe_disagrees' AS flag, 49 AS ord, 'axe_disagrees' AS rule
FROM audit_link_facts
WHERE (type, pos, i) IN (SELECT (type, pos, i) FROM audit_axe_unreported)
UNION ALL
-- 50 axe_disagrees (image)
SELECT type, product, pos, i, unit_key, 'axe_disagrees' AS flag, 50 AS ord, 'axe_disagrees' AS rule
FROM audit_image_facts
WHERE (type, pos, i) IN (SELECT (type, pos, i) FROM audit_axe_unreported)
UNION ALL
-- 51 axe_disagrees (field)
SELECT type, product, pos, i, unit_key, 'axe_disagrees' AS flag, 51 AS ord, 'axe_disagrees' AS rule
FROM audit_field_facts
WHERE (type, pos, i) IN (SELECT (type, pos, i) FROM audit_axe_unreported);
