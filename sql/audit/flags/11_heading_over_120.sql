-- heading_over_120: the heading is longer than 120 characters
--   type: heading
SELECT *
FROM audit_heading_facts
WHERE length(name) > 120
