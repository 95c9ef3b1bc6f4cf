-- field_no_accessible_name: the browser exposes this form field with no accessible name: a screen reader announces only its role
--   type: field
--   act_rule: e086e5
--   act_check: true
--   fact_class: no accessible name
SELECT *
FROM audit_field_facts
WHERE exposed AND ax_name = ''
