-- name_from_SOURCE: the heading's name does not come from its text content
--   type: heading
--   informational: true
SELECT 'name_from_' || name_source AS flag
FROM audit_heading_facts
WHERE name_source NOT IN ('content', 'contents')
