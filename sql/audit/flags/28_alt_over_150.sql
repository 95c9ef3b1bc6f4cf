-- alt_over_150: the alt is longer than 150 characters
--   type: image
SELECT *
FROM audit_image_facts
WHERE length(text_alt) > 150
