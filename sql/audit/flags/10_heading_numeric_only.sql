-- heading_numeric_only: the heading is only digits and punctuation
--   type: heading
SELECT *
FROM audit_heading_facts
WHERE name <> '' AND regexp_matches(name, '^[0-9.,%\s-]+$')
