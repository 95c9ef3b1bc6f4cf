-- h1_count_N: the page has N h1 elements
--   type: title
--   informational: true
SELECT 'h1_count_' || h1_count AS flag
FROM audit_title_facts
WHERE h1_count > 1
