-- audit_unit_places: where each unit is first seen: the view and the element's box there (what a report crops the view's screenshot around); a title's box is the top of its page
--   id: unit id
--   view_id: the view of its first occurrence
--   box: x, y, width and height in CSS pixels of that page (NULL when the capture did not record one)
CREATE OR REPLACE VIEW audit_unit_places AS
WITH firsts AS (
    SELECT type, product, unit_key, arg_min({'pos': pos, 'view_id': view_id, 'i': i}, {'p': pos, 'i': i}) AS f
    FROM audit_occurrences GROUP BY type, product, unit_key
),
boxes AS (
    SELECT 'heading' AS type, pos, i, box FROM audit_headings
    UNION ALL SELECT 'link', pos, i, box FROM audit_links
    UNION ALL SELECT 'image', pos, i, box FROM audit_images
    UNION ALL SELECT 'field', pos, i, box FROM audit_fields
)
SELECT u.id, f.f.view_id AS view_id,
    CASE WHEN u.type = 'title' THEN {'x': 0, 'y': 0, 'width': 0, 'height': 0} ELSE b.box END AS box
FROM audit_units AS u
JOIN firsts AS f USING (type, product, unit_key)
LEFT JOIN boxes AS b ON b.type = u.type AND b.pos = f.f.pos AND b.i = f.f.i;
