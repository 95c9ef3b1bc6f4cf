-- audit_finding_examples: more examples of an axe-core finding row (one rule on one component), for the report to show beside its first crop: up to two further occurrences a picture shows, each on another view than the row's own place, in page order
--   id: unit id
--   n: 1 or 2
--   view_id: the view of that occurrence
--   viewport: the viewport it was captured at
--   shot: which picture of the view shows it (0 the screenshot, N the view's Nth reveal)
--   box: x, y, width and height in CSS pixels of that picture
CREATE OR REPLACE VIEW audit_finding_examples AS
WITH shown AS (
    SELECT u.id, o.view_id, v.viewport, o.pos,
        CASE WHEN n.revealed.box IS NOT NULL THEN n.revealed.shot ELSE 0 END AS shot,
        CASE WHEN n.revealed.box IS NOT NULL THEN n.revealed.box ELSE n.box END AS box
    FROM audit_units AS u
    JOIN audit_occurrences AS o ON o.type = 'finding' AND o.product = u.product AND o.unit_key = u.unit_key
    JOIN audit_axe_nodes AS n ON n.pos = o.pos AND n.i = o.i
    JOIN audit_views AS v ON v.pos = o.pos
    WHERE u.type = 'finding'
),
others AS (  -- one drawn occurrence per view, not on the row's own view
    SELECT s.* FROM shown AS s JOIN audit_unit_places AS p USING (id)
    WHERE s.view_id <> p.view_id AND s.box.width > 0 AND s.box.height > 0 AND s.box.y >= 0 AND s.box.x >= 0
    QUALIFY row_number() OVER (PARTITION BY s.id, s.view_id ORDER BY s.box.y) = 1
)
SELECT id, row_number() OVER (PARTITION BY id ORDER BY pos) AS n, view_id, viewport, shot, box
FROM others
QUALIFY row_number() OVER (PARTITION BY id ORDER BY pos) <= 2;
