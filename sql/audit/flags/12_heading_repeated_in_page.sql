-- heading_repeated_in_page: the same heading text at the same level appears more than once in the page
--   type: heading
--   informational: true
SELECT *
FROM audit_heading_facts
WHERE same_in_page > 1
