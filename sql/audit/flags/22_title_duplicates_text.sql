-- title_duplicates_text: the title attribute repeats the link text
--   type: link
--   informational: true
SELECT *
FROM audit_link_facts
WHERE coalesce(title, '') <> '' AND norm_text(title) = norm_text(text)
