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
CREATE OR REPLACE TABLE audit_views AS
WITH recs AS (
    SELECT source, line, doc FROM jsonl_records
    WHERE kind = 'inventory' AND is_object AND coalesce(jstr(doc, '$.record'), 'view') = 'view'
)
SELECT row_number() OVER (ORDER BY source, line) AS pos, source, line,
    jstr(doc, '$.view_id') AS view_id, jstr(doc, '$.product') AS product, jstr(doc, '$.url') AS url,
    jstr(doc, '$.final_url') AS final_url, jstr(doc, '$.nav_error') AS nav_error,
    coalesce(jbool(doc, '$.stayed_on_route_host'), false) AS stayed_on_route_host,
    json_type(doc, '$.inventory') = 'OBJECT' AND json_type(doc, '$.inventory.error') IS NULL AS ok,
    lower(regexp_extract(coalesce(jstr(doc, '$.final_url'), jstr(doc, '$.url')), '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]*)', 1)) AS host,
    CASE WHEN json_type(doc, '$.inventory') = 'OBJECT' THEN doc -> '$.inventory' END AS inv
FROM recs;
