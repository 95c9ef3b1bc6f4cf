-- alt_repeats_adjacent_text: the alt repeats the text next to the image
--   type: image
SELECT *
FROM audit_image_facts
WHERE NOT functional AND coalesce(text_alt, '') <> '' AND context <> '' AND starts_with(norm_text(context),
    norm_text(text_alt))
