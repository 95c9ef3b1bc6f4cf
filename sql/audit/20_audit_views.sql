-- audit_views: one row per captured view of the inventory (computed once when the store is built)
--   pos: the view's position in the inventory (1 = first line after the run header)
--   source: inventory file path
--   line: 1-based line number in that file
--   view_id: view id
--   product: product the view belongs to
--   url: the URL that was asked for
--   final_url: the URL the browser ended on
--   nav_error: the environment note, when the view could not be captured
--   stayed_on_route_host: whether the browser stayed on the asked-for host
--   ok: whether the view has an inventory (environment notes never count as product evidence)
--   host: host and port of the final URL (of the asked-for URL when there is none)
--   inv: the view's inventory as JSON
-- audit_view_content: each inventoried view's content, parsed once into typed lists (meta, headings, links, images, fields, navs)
--   pos: the view's position
--   content: the inventory as a typed struct
CREATE OR REPLACE TABLE audit_views AS
WITH recs AS (
    SELECT source, line, json_extract(doc, ['$.record', '$.view_id', '$.product', '$.url', '$.final_url', '$.nav_error',
        '$.stayed_on_route_host', '$.inventory']) AS v
    FROM jsonl_records WHERE kind = 'inventory' AND is_object
),
typed AS (
    SELECT source, line,
        CASE WHEN json_type(v[1]) = 'VARCHAR' THEN v[1] ->> '$' END AS record,
        CASE WHEN json_type(v[2]) = 'VARCHAR' THEN v[2] ->> '$' END AS view_id,
        CASE WHEN json_type(v[3]) = 'VARCHAR' THEN v[3] ->> '$' END AS product,
        CASE WHEN json_type(v[4]) = 'VARCHAR' THEN v[4] ->> '$' END AS url,
        CASE WHEN json_type(v[5]) = 'VARCHAR' THEN v[5] ->> '$' END AS final_url,
        CASE WHEN json_type(v[6]) = 'VARCHAR' THEN v[6] ->> '$' END AS nav_error,
        coalesce(json_type(v[7]) = 'BOOLEAN' AND (v[7] ->> '$') = 'true', false) AS stayed_on_route_host,
        CASE WHEN json_type(v[8]) = 'OBJECT' THEN v[8] END AS inv
    FROM recs
)
SELECT row_number() OVER (ORDER BY source, line) AS pos, source, line, view_id, product, url, final_url, nav_error,
    stayed_on_route_host, inv IS NOT NULL AND json_type(inv, '$.error') IS NULL AS ok,
    lower(regexp_extract(coalesce(final_url, url), '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]*)', 1)) AS host, inv
FROM typed
WHERE coalesce(record, 'view') = 'view';

CREATE OR REPLACE TABLE audit_view_content AS
SELECT pos, json_transform(inv, '{"meta": {"title": "VARCHAR", "h1": ["VARCHAR"], "h1_count": "INTEGER", "meta_description": "VARCHAR"}, "headings": [{"i": "INTEGER", "level": "INTEGER", "text": "VARCHAR", "name_source": "VARCHAR", "selector": "VARCHAR", "visible": "BOOLEAN", "aria_hidden": "BOOLEAN", "landmark": "VARCHAR", "section_preview": "VARCHAR"}], "links": [{"i": "INTEGER", "name": "VARCHAR", "name_source": "VARCHAR", "text": "VARCHAR", "title": "VARCHAR", "href": "VARCHAR", "href_raw": "VARCHAR", "same_page": "BOOLEAN", "external": "BOOLEAN", "target": "VARCHAR", "download": "BOOLEAN", "file_ext": "VARCHAR", "has_img": "BOOLEAN", "img_alt": "VARCHAR", "icon_only": "BOOLEAN", "empty_name": "BOOLEAN", "visible": "BOOLEAN", "aria_hidden": "BOOLEAN", "landmark": "VARCHAR", "selector": "VARCHAR", "context": "VARCHAR"}], "images": [{"i": "INTEGER", "tag": "VARCHAR", "src": "VARCHAR", "src_basename": "VARCHAR", "alt": "VARCHAR", "alt_present": "BOOLEAN", "alt_empty": "BOOLEAN", "role": "VARCHAR", "aria_label": "VARCHAR", "aria_labelledby_text": "VARCHAR", "aria_hidden": "BOOLEAN", "title": "VARCHAR", "svg_title": "VARCHAR", "in_control": {"tag": "VARCHAR", "name": "VARCHAR", "href": "VARCHAR", "control_has_text": "BOOLEAN"}, "figcaption": "VARCHAR", "width": "INTEGER", "height": "INTEGER", "visible": "BOOLEAN", "landmark": "VARCHAR", "selector": "VARCHAR", "adjacent_text": "VARCHAR"}], "fields": [{"i": "INTEGER", "type": "VARCHAR", "name_attr": "VARCHAR", "id": "VARCHAR", "label": "VARCHAR", "label_source": "VARCHAR", "placeholder": "VARCHAR", "required": "BOOLEAN", "describedby_text": "VARCHAR", "fieldset_legend": "VARCHAR", "visible": "BOOLEAN", "landmark": "VARCHAR", "selector": "VARCHAR"}], "navs": [{"role": "VARCHAR", "label": "VARCHAR", "items": [{"name": "VARCHAR", "href": "VARCHAR", "tag": "VARCHAR"}]}]}') AS content
FROM audit_views WHERE ok;
