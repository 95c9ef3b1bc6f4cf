-- title_over_120: the title is longer than 120 characters
--   type: title
SELECT *
FROM audit_title_facts
WHERE length(name) > 120
