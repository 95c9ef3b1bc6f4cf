-- heading_no_accessible_name: the browser exposes this heading with no accessible name (its only text may be aria-hidden)
--   type: heading
--   act_rule: ffd0e9
--   act_check: true
--   fact_class: no accessible name
SELECT *
FROM audit_heading_facts
WHERE exposed AND ax_name = ''
