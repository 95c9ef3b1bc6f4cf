-- alt_generic: the alt is a generic word (image, icon, logo, ...)
--   type: image
SELECT *
FROM audit_image_facts
WHERE coalesce(text_alt, '') <> '' AND matches_i(trim(text_alt),
    '^(image|photo|picture|icon|logo|graphic|img|figure|banner|thumbnail|arrow|chevron|bullet|spacer|placeholder)$')
