-- name_from_title_only: the link is named only by its title attribute
--   type: link
--   informational: true
SELECT *
FROM audit_link_facts
WHERE name_source = 'title'
