-- audit_inventory_violations: broken lines of an inventory file: not JSON, not an object, a view without its id, product or URL, a URL that is not http(s) (javascript:, file:, data:), a view holding more than 5,000 elements of one kind or a landmark of more than 5,000 items (capture keeps 500 and 120: more is no page's capture, and would cost build memory with the square of it), an id or product that cannot name a file inside the folder (too long; an id not letters, digits, . _ -; a product not starting with a letter or digit, or holding / \ or a control or invisible character), a view id used twice at one viewport, or an inventory.jsonl without its run header on line 1 (or with a second one)
--   source: inventory file path
--   line: 1-based line number
--   record_id: the view id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW audit_inventory_violations AS
WITH views AS (  -- each view's fields and the sizes of its lists, not the inventory itself: DuckDB keeps a CTE read
    -- six times once, and every view's elements carried through it made the checks nine times slower (10,000 views)
    SELECT source, line, view_id, product, url, viewport, jstr(view_id, '$') AS id,
        [len(inventory.headings), len(inventory.links), len(inventory.images), len(inventory.fields),
            len(inventory.navs), list_max(list_transform(inventory.navs, lambda n: len(n.items)))] AS sizes
    FROM raw_inventory WHERE coalesce(jstr(record, '$'), 'view') = 'view'
)
SELECT source, line, record_id, field, code, message FROM jsonl_line_violations WHERE kind = 'inventory'
UNION ALL
SELECT v.source, v.line, v.id, f.field, 'missing_field', 'a view needs a string ' || f.field
FROM views AS v, (VALUES ('view_id', 1), ('product', 2), ('url', 3)) AS f(field, k)
WHERE json_type([v.view_id, v.product, v.url][f.k]) IS DISTINCT FROM 'VARCHAR'
UNION ALL
SELECT v.source, v.line, left(v.id, 100), 'url', 'invalid_url', 'url ' || left(jstr(v.url, '$'), 80)
    || ' is not an http(s) URL (a view is a web page)'
FROM views AS v
WHERE json_type(v.url) = 'VARCHAR' AND NOT regexp_matches(jstr(v.url, '$'), '^[hH][tT][tT][pP][sS]?://')
UNION ALL
SELECT v.source, v.line, left(v.id, 100), 'inventory.' || f.kind, 'too_many',
    'the view holds ' || f.n || ' ' || f.kind || '; a view holds at most 5000 of each (capture keeps at most 500)'
FROM views AS v, LATERAL (VALUES ('headings', v.sizes[1]), ('links', v.sizes[2]), ('images', v.sizes[3]),
    ('fields', v.sizes[4]), ('navs', v.sizes[5]), ('nav items', v.sizes[6])) AS f(kind, n)
WHERE f.n > 5000
UNION ALL
SELECT v.source, v.line, left(v.id, 100), f.field, 'invalid_value', f.field || ' is ' || length(jstr(f.value, '$'))
    || ' characters; at most 100 (it names files)'
FROM views AS v, LATERAL (VALUES ('view_id', v.view_id), ('product', v.product)) AS f(field, value)
WHERE length(jstr(f.value, '$')) > 100
UNION ALL
SELECT v.source, v.line, left(v.id, 100), f.field, 'invalid_value', f.field || ' ' || left(jstr(f.value, '$'), 80)
    || ' ' || f.rule
FROM views AS v, LATERAL (VALUES
    ('view_id', v.view_id, 'must be letters, digits, . _ or -'),
    ('product', v.product,
     'must start with a letter or digit and hold no / or \ and no control or invisible character (it names files)')
) AS f(field, value, rule)
-- each pattern a constant, so it is compiled once and not once per row
WHERE length(jstr(f.value, '$')) <= 100 AND NOT CASE f.field
    WHEN 'view_id' THEN regexp_full_match(jstr(f.value, '$'), '[A-Za-z0-9][A-Za-z0-9._-]*')
    ELSE regexp_full_match(jstr(f.value, '$'), '[\p{L}\p{N}][^/\\\p{C}\p{Zl}\p{Zp}]*') END
UNION ALL
SELECT source, line, id, 'view_id', 'duplicate_view', 'view id ' || id || coalesce(' at viewport ' || jstr(viewport,
    '$'), '') || ' appears on an earlier line'
FROM (SELECT *, row_number() OVER (PARTITION BY id, jstr(viewport, '$') ORDER BY line) AS nth FROM views
    WHERE id IS NOT NULL)
WHERE nth > 1
UNION ALL  -- an inventory.jsonl opens with its run header, once
SELECT s.source, 1, NULL, 'record', 'missing_header',
    'line 1 of an inventory.jsonl is its run header ({"record": "run", "schema": "content-inventory/v1", ...}); this file has none'
FROM (SELECT DISTINCT source FROM raw_lines WHERE kind = 'inventory' AND source LIKE '%inventory.jsonl'
      UNION SELECT DISTINCT source FROM raw_inventory WHERE source LIKE '%inventory.jsonl') AS s
WHERE NOT EXISTS (SELECT 1 FROM raw_inventory AS r WHERE r.source = s.source AND r.line = 1 AND jstr(r.record,
    '$') = 'run')
UNION ALL
SELECT source, line, NULL, 'record', 'misplaced_header', 'a run header belongs on line 1 only; this is another one'
FROM raw_inventory WHERE jstr(record, '$') = 'run' AND line <> 1
ORDER BY source, line;
