-- complex_image_short_alt: a chart, map or diagram with a short or no alt and no caption
--   type: image
SELECT *
FROM audit_image_facts
WHERE (tag = 'canvas' OR matches_i(src_basename || ' ' || coalesce(text_alt, ''),
    'map|chart|graph|plot|structure|gauge|legend')) AND (coalesce(text_alt, '') = '' OR length(text_alt) < 40)
    AND coalesce(figcaption, '') = ''
