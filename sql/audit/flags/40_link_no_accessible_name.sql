-- link_no_accessible_name: the browser exposes this link with no accessible name: a screen reader announces "link" and nothing else
--   type: link
--   act_rule: c487ae
--   act_check: true
--   fact_class: no accessible name
SELECT *
FROM audit_link_facts
WHERE exposed AND ax_name = ''
