-- heading_empty: the heading has no text (a capture without the accessibility tree; with it, heading_no_accessible_name says this)
--   type: heading
--   act_rule: ffd0e9
SELECT *
FROM audit_heading_facts
WHERE exposed IS NULL AND name = ''
