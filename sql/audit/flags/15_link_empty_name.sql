-- link_empty_name: the link has no accessible name by the DOM approximation (a capture without the accessibility tree; with it, link_no_accessible_name says this)
--   type: link
--   act_rule: c487ae
--   fact_class: empty link name
SELECT *
FROM audit_link_facts
WHERE exposed IS NULL AND empty_name
