-- audit_caps_hit: where capture stopped reading a kind of element at its cap (a view with 633 links read 500): what the page holds beyond the cap was not judged, and the build summary, the report and the coverage basis say so
--   view_id: view id
--   viewport: the viewport it was captured at
--   kind: headings, links, images, fields or navs (navigation items)
--   read: how many were read
--   total: how many the page holds (NULL when the capture does not count beyond the cap)
CREATE OR REPLACE VIEW audit_caps_hit AS
WITH capped AS (
    SELECT v.view_id, v.viewport, r.inventory.capped AS c, r.inventory.counts AS n
    FROM audit_views AS v JOIN raw_inventory AS r USING (source, line)
    WHERE v.ok AND r.inventory.capped IS NOT NULL
)
SELECT view_id, viewport, kind, read, total FROM (
    SELECT view_id, viewport, 'headings' AS kind, n.headings AS read, CAST(NULL AS INTEGER) AS total FROM capped
        WHERE c.headings
    UNION ALL SELECT view_id, viewport, 'links', n.links, n.links_total FROM capped WHERE c.links
    UNION ALL SELECT view_id, viewport, 'images', n.images, n.images_total FROM capped WHERE c.images
    UNION ALL SELECT view_id, viewport, 'fields', n.fields, NULL FROM capped WHERE c.fields
    UNION ALL SELECT view_id, viewport, 'navs', NULL, NULL FROM capped WHERE c.navs
)
ORDER BY view_id, viewport, kind;
