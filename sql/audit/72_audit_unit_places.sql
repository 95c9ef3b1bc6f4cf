-- audit_unit_places: where a report shows each unit: the occurrence a picture shows best (drawn, in the view's screenshot or in a picture of its own: a tile further down the page, or a screenful with it scrolled into view in its container; inside the page; nearest the top of its page; then the first), the view and the element's box there (what a report crops the picture around; a field's label box beside it); a title's box is the top of its page
--   id: unit id
--   view_id: the view of that occurrence
--   viewport: the viewport it was captured at (its screenshot is the view's at that viewport)
--   shot: which picture of the view shows it: 0 the view's screenshot, N the view's Nth reveal (a tile of the page further down than the screenshot reaches, or a screenful with the element scrolled into view in its container)
--   box: x, y, width and height in CSS pixels of that picture (NULL when the capture did not record one)
--   label_box: a field's visible label, where it is drawn in the view's screenshot (NULL for other types, without one, or in a reveal)
--   clipped: whether even that occurrence is scrolled out of view inside its container with no picture of it scrolled into view (so no picture shows it)
--   scrolled: whether the picture is a screenful taken with it scrolled into view in its container (false for the screenshot and for a tile further down the page; NULL when the capture does not say, as for an axe-core node)
CREATE OR REPLACE VIEW audit_unit_places AS
WITH elements AS (
    SELECT 'heading' AS type, pos, i, box, coalesce(clipped, false) AS clipped, revealed, CAST(NULL AS STRUCT(x INTEGER,
        y INTEGER, width INTEGER, height INTEGER)) AS label_box FROM audit_headings
    UNION ALL SELECT 'link', pos, i, box, coalesce(clipped, false), revealed, NULL FROM audit_links
    UNION ALL SELECT 'image', pos, i, box, coalesce(clipped, false), revealed, NULL FROM audit_images
    UNION ALL SELECT 'field', pos, i, box, coalesce(clipped, false), revealed, label_box FROM audit_fields
    UNION ALL SELECT 'finding', pos, i, box, NULL, revealed, NULL FROM audit_axe_nodes  -- axe-core does not say
),
-- an element the screenshot does not show (scrolled out of view in its container, or further down the page) is
-- shown in its own picture
boxes AS (
    SELECT type, pos, i,
        CASE WHEN revealed.box IS NOT NULL THEN revealed.shot ELSE 0 END AS shot,
        CASE WHEN revealed.box IS NOT NULL THEN revealed.box ELSE box END AS box,
        CASE WHEN revealed.box IS NOT NULL THEN NULL ELSE label_box END AS label_box,
        coalesce(clipped, false) AND revealed.box IS NULL AS clipped,
        CASE WHEN revealed.box IS NULL THEN false ELSE clipped END AS scrolled  -- NULL: not known (an axe-core node)
    FROM elements
),
firsts AS (
    SELECT o.type, o.product, o.unit_key,
        arg_min({'pos': o.pos, 'view_id': o.view_id, 'i': o.i},
                {'undrawn': coalesce(b.box.width, 0) <= 0 OR coalesce(b.box.height, 0) <= 0,
                 'clipped': coalesce(b.clipped, false)
                            OR coalesce(b.box.y + b.box.height <= 0 OR b.box.x + b.box.width <= 0, false),
                 'revealed': coalesce(b.shot, 0) > 0,
                 'y': coalesce(b.box.y, 0), 'p': o.pos, 'i': o.i}) AS f
    FROM audit_occurrences AS o LEFT JOIN boxes AS b ON b.type = o.type AND b.pos = o.pos AND b.i = o.i
    GROUP BY o.type, o.product, o.unit_key
)
SELECT u.id, f.f.view_id AS view_id, (SELECT v.viewport FROM audit_views AS v WHERE v.pos = f.f.pos) AS viewport,
    coalesce(b.shot, 0) AS shot,
    CASE WHEN u.type = 'title' THEN {'x': 0, 'y': 0, 'width': 0, 'height': 0} ELSE b.box END AS box, b.label_box,
    coalesce(b.clipped, false) AS clipped, b.scrolled
FROM audit_units AS u
JOIN firsts AS f USING (type, product, unit_key)
LEFT JOIN boxes AS b ON b.type = u.type AND b.pos = f.f.pos AND b.i = f.f.i;
