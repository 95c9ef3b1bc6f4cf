-- audit_views: one row per captured view of the inventory (computed once when the store is built)
--   pos: the view's position in the inventory (1 = first line after the run header)
--   source: inventory file path
--   line: 1-based line number in that file
--   view_id: view id
--   product: product the view belongs to
--   viewport: the viewport it was captured at (its id; a view captured at several has a row at each)
--   url: the URL that was asked for
--   final_url: the URL the browser ended on
--   nav_error: the environment note, when the view could not be captured
--   stayed_on_route_host: whether the browser stayed on the asked-for host
--   ok: whether the view has an inventory (environment notes never count as product evidence)
--   host: host and port of the final URL (of the asked-for URL when there is none)
-- audit_view_content: each inventoried view's content, typed (meta, headings, links, images, fields, navs), as raw_inventory holds it
--   pos: the view's position
--   content: the inventory as a typed struct
CREATE OR REPLACE TABLE audit_views AS
WITH typed AS (
    SELECT source, line, jstr(record, '$') AS record, jstr(view_id, '$') AS view_id, jstr(product, '$') AS product,
        jstr(url, '$') AS url, jstr(viewport, '$') AS viewport, jstr(final_url, '$') AS final_url, jstr(nav_error, '$') AS nav_error,
        coalesce(jbool(stayed_on_route_host, '$'), false) AS stayed_on_route_host,
        inventory IS NOT NULL AND inventory.error IS NULL AS ok
    FROM raw_inventory
)
SELECT row_number() OVER (ORDER BY source, line) AS pos, source, line, view_id, product, viewport, url, final_url, nav_error,
    stayed_on_route_host, ok,
    lower(regexp_extract(coalesce(final_url, url), '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]*)', 1)) AS host
FROM typed
WHERE coalesce(record, 'view') = 'view';

CREATE OR REPLACE VIEW audit_view_content AS
SELECT v.pos, r.inventory AS content FROM audit_views AS v JOIN raw_inventory AS r USING (source, line) WHERE v.ok;
