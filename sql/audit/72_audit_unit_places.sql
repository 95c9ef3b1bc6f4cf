-- audit_unit_places: where a report shows each unit: the occurrence a screenshot shows best (drawn, not scrolled out of view inside a container, inside the page, nearest the top of its page; then the first), the view and the element's box there (what a report crops the view's screenshot around; a field's label box beside it); a title's box is the top of its page
--   id: unit id
--   view_id: the view of that occurrence
--   viewport: the viewport it was captured at (its screenshot is the view's at that viewport)
--   box: x, y, width and height in CSS pixels of that page (NULL when the capture did not record one)
--   label_box: a field's visible label, where it is drawn (NULL for other types, or without one)
--   clipped: whether even that occurrence is scrolled out of view inside its container (so no screenshot shows it)
CREATE OR REPLACE VIEW audit_unit_places AS
WITH boxes AS (
    SELECT 'heading' AS type, pos, i, box, clipped, CAST(NULL AS STRUCT(x INTEGER, y INTEGER, width INTEGER, height INTEGER)) AS label_box FROM audit_headings
    UNION ALL SELECT 'link', pos, i, box, clipped, NULL FROM audit_links
    UNION ALL SELECT 'image', pos, i, box, clipped, NULL FROM audit_images
    UNION ALL SELECT 'field', pos, i, box, clipped, label_box FROM audit_fields
    UNION ALL SELECT 'finding', pos, i, box, NULL, NULL FROM audit_axe_nodes
),
firsts AS (
    SELECT o.type, o.product, o.unit_key,
        arg_min({'pos': o.pos, 'view_id': o.view_id, 'i': o.i},
                {'undrawn': coalesce(b.box.width, 0) <= 0 OR coalesce(b.box.height, 0) <= 0,
                 'clipped': coalesce(b.clipped, false)
                            OR coalesce(b.box.y + b.box.height <= 0 OR b.box.x + b.box.width <= 0, false),
                 'y': coalesce(b.box.y, 0), 'p': o.pos, 'i': o.i}) AS f
    FROM audit_occurrences AS o LEFT JOIN boxes AS b ON b.type = o.type AND b.pos = o.pos AND b.i = o.i
    GROUP BY o.type, o.product, o.unit_key
)
SELECT u.id, f.f.view_id AS view_id, (SELECT v.viewport FROM audit_views AS v WHERE v.pos = f.f.pos) AS viewport,
    CASE WHEN u.type = 'title' THEN {'x': 0, 'y': 0, 'width': 0, 'height': 0} ELSE b.box END AS box, b.label_box,
    coalesce(b.clipped, false) AS clipped
FROM audit_units AS u
JOIN firsts AS f USING (type, product, unit_key)
LEFT JOIN boxes AS b ON b.type = u.type AND b.pos = f.f.pos AND b.i = f.f.i;
