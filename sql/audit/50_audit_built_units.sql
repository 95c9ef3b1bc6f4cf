-- audit_built_units: the units of judgment-units.json as built (what the batches were cut from and judges saw), a table computed once per build of the store
--   ord: the unit's place in the file
--   id: unit id
--   type: unit type
--   sc: WCAG success criterion
--   product: product
--   views: distinct views, in view order
--   view_count: number of distinct views
--   name: name
--   detail: detail
--   href: href or src
--   context: context
--   landmark: landmark
--   selector: CSS path
--   visible: whether any occurrence was rendered
--   flags: flags
--   name_approximated: whether the unit's name is only the DOM approximation (its needs_human mark, or a unit built before names came from the browser)
--   unit: the unit as JSON, exactly as built
-- audit_batch_lines: every line of every batch file handed to judges, a table computed once per build of the store (every check of a judged line reads it)
--   source: batch file path
--   batch: batch file name
--   line: 1-based line number
--   id: unit id on that line
CREATE OR REPLACE TABLE audit_built_units AS
WITH lines AS (  -- each unit's line parsed once, straight from its text (jsonl_records leaves these lines out)
    SELECT line, TRY_CAST(text AS JSON) AS doc FROM raw_lines WHERE kind = 'unit'
),
u AS (  -- every field read in one pass over the unit's JSON (a path at a time parses it once per field)
    SELECT line, doc, json_extract(doc, ['$.id', '$.type', '$.sc', '$.product', '$.views', '$.view_count', '$.name',
        '$.detail', '$.href', '$.context', '$.landmark', '$.selector', '$.visible', '$.flags', '$.needs_human']) AS v
    FROM lines WHERE json_type(doc) = 'OBJECT'
)
SELECT line AS ord, jval_str(v[1]) AS id, jval_str(v[2]) AS type, jval_str(v[3]) AS sc,
    jval_str(v[4]) AS product, CAST(json_transform(v[5], '["VARCHAR"]') AS VARCHAR[]) AS views,
    jint(v[6], '$') AS view_count, jval_str(v[7]) AS name, jval_str(v[8]) AS detail,
    jval_str(v[9]) AS href, jval_str(v[10]) AS context, jval_str(v[11]) AS landmark,
    jval_str(v[12]) AS selector, jbool(v[13], '$') AS visible,
    coalesce(CAST(json_transform(v[14], '["VARCHAR"]') AS VARCHAR[]), []) AS flags,
    jbool(v[15], '$') IS NOT FALSE AS name_approximated, doc AS unit
FROM u;

CREATE OR REPLACE TABLE audit_batch_lines AS
SELECT source, regexp_extract(source, '[^/]+$') AS batch, line, jstr(doc, '$.id') AS id
FROM jsonl_records WHERE kind = 'batch' AND is_object;
