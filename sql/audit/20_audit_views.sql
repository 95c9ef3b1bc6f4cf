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
--   ok: whether the view has an inventory and is a page of its own (environment notes never count as product evidence; a view folded into another is that view's page)
--   host: host and port of the final URL (of the asked-for URL when there is none)
--   folded_into: one page, one view: the earlier view this one is the same page as (the browser ended on the same document: a redirect or an alias; or the page reads the same: its title, its headings with the text under each, its images, where it has headings), NULL for a page of its own; its URL is recorded, its content is not counted twice
-- audit_view_content: each inventoried view's content, typed (meta, headings, links, images, fields, navs), as raw_inventory holds it
--   pos: the view's position
--   content: the inventory as a typed struct
CREATE OR REPLACE TABLE audit_views AS
WITH typed AS (
    SELECT source, line, jstr(record, '$') AS record, jstr(view_id, '$') AS view_id, jstr(product, '$') AS product,
        jstr(url, '$') AS url, jstr(viewport, '$') AS viewport, jstr(final_url, '$') AS final_url, jstr(nav_error,
            '$') AS nav_error,
        coalesce(jbool(stayed_on_route_host, '$'), false) AS stayed_on_route_host,
        inventory IS NOT NULL AND inventory.error IS NULL AS captured,
        document_of(coalesce(nullif(jstr(final_url, '$'), ''), jstr(url, '$'))) AS doc, inventory
    FROM raw_inventory
),
read AS (
    SELECT * EXCLUDE (inventory),
        CASE WHEN inventory IS NOT NULL AND inventory.error IS NULL AND len(inventory.headings) > 0
            THEN sha256(CAST(to_json({
            -- what a person reads on the page: its title, its headings with the text under each, its images (not the
            -- chrome's links, which mark the page a copy stands at as the current one)
            'title': inventory.meta.title,
            'headings': list_transform(inventory.headings, lambda h: [h.text, h.section_preview]),
            'images': list_transform(inventory.images, lambda m: [m.src, m.alt])}) AS VARCHAR)) END AS content_sha
    FROM typed
),
placed AS (SELECT row_number() OVER (ORDER BY source, line) AS pos, * FROM read WHERE coalesce(record,
    'view') = 'view'),
firsts AS (  -- the first view (in inventory order) of each page: by the document the browser ended on, and by content
    SELECT *,
        first_value(view_id) OVER (PARTITION BY product, viewport, doc ORDER BY pos) AS first_of_doc,
        first_value(view_id) OVER (PARTITION BY product, viewport, captured,
            content_sha ORDER BY pos) AS first_of_content
    FROM placed
)
SELECT pos, source, line, view_id, product, viewport, url, final_url, nav_error, stayed_on_route_host,
    captured AND folded_into IS NULL AS ok,
    lower(regexp_extract(coalesce(final_url, url), '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]*)', 1)) AS host,
    folded_into
FROM (SELECT *, CASE WHEN captured AND first_of_doc <> view_id THEN first_of_doc
                     WHEN captured AND content_sha IS NOT NULL AND first_of_content <> view_id
                         THEN first_of_content END AS folded_into
      FROM firsts);

CREATE OR REPLACE VIEW audit_view_content AS
SELECT v.pos, r.inventory AS content FROM audit_views AS v JOIN raw_inventory AS r USING (source, line) WHERE v.ok;
