-- empty_h1: an h1 has no text
--   type: title
--   informational: true
SELECT *
FROM audit_title_facts
WHERE has_empty_h1
