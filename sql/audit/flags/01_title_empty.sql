-- title_empty: the page has no title
--   type: title
--   act_rule: 2779a5
--   act_check: true
SELECT *
FROM audit_title_facts
WHERE trim(name) = ''
