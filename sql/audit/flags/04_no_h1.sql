-- no_h1: the page has no h1
--   type: title
--   informational: true
SELECT *
FROM audit_title_facts
WHERE h1_count = 0
