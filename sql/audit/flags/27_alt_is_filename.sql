-- alt_is_filename: the alt is the image's file name
--   type: image
SELECT *
FROM audit_image_facts
WHERE coalesce(text_alt, '') <> '' AND (matches_i(trim(text_alt), '\.(png|jpe?g|gif|svg|webp)$')
    OR norm_text(text_alt) = norm_text(regexp_replace(src_basename, '\.[a-zA-Z0-9]+$', '')))
