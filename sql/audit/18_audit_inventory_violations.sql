-- audit_inventory_violations: broken lines of an inventory file: not JSON, not an object, a view without its id, product or URL, or a view id used twice
--   source: inventory file path
--   line: 1-based line number
--   record_id: the view id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW audit_inventory_violations AS
WITH recs AS (SELECT * FROM jsonl_records WHERE kind = 'inventory'),
views AS (SELECT *, jstr(doc, '$.view_id') AS view_id FROM recs WHERE is_object AND coalesce(jstr(doc, '$.record'), 'view') = 'view')
SELECT source, line, record_id, field, code, message FROM jsonl_line_violations WHERE kind = 'inventory'
UNION ALL
SELECT v.source, v.line, v.view_id, f.field, 'missing_field', 'a view needs a string ' || f.field
FROM views AS v, (VALUES ('view_id'), ('product'), ('url')) AS f(field)
WHERE json_type(v.doc, '$.' || f.field) IS DISTINCT FROM 'VARCHAR'
UNION ALL
SELECT source, line, view_id, 'view_id', 'duplicate_view', 'view id ' || view_id || ' appears on an earlier line'
FROM (SELECT *, row_number() OVER (PARTITION BY view_id ORDER BY line) AS nth FROM views WHERE view_id IS NOT NULL)
WHERE nth > 1
ORDER BY source, line;
