-- audit_family_shapes: links, images and fields of one container pattern (the same CSS path without positions in the same landmark: links in running text, entries of one list, images of one gallery): written by one hand for one purpose, so one answer holds for all, with a sample to look at
--   id: unit id
--   pattern: shapes
--   rank: 5
--   key: product, type, landmark and CSS path without positions
--   question: the family's one question
CREATE OR REPLACE VIEW audit_family_shapes AS
SELECT id, 'shapes' AS pattern, 5 AS rank, product || ' · ' || type || ' · ' || coalesce(nullif(landmark, ''),
    'no landmark') || ' · ' || shape AS key,
    CASE type WHEN 'link' THEN 'Does each of these links, read with its context, say where it goes?'
              WHEN 'image' THEN 'Does each of these images'' text alternative serve the image''s purpose?'
              ELSE 'Does each of these labels say what to enter?' END AS question
FROM audit_family_rows
WHERE type IN ('link', 'image', 'field') AND plain AND shape <> '';
