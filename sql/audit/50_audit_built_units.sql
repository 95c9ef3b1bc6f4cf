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
-- audit_batch_lines: every line of every batch file handed to judges
--   batch: batch file name
--   line: 1-based line number
--   id: unit id on that line
CREATE OR REPLACE TABLE audit_built_units AS
SELECT line AS ord, jstr(doc, '$.id') AS id, jstr(doc, '$.type') AS type, jstr(doc, '$.sc') AS sc,
    jstr(doc, '$.product') AS product, CAST(json_transform(doc -> '$.views', '["VARCHAR"]') AS VARCHAR[]) AS views,
    jint(doc, '$.view_count') AS view_count, jstr(doc, '$.name') AS name, jstr(doc, '$.detail') AS detail,
    jstr(doc, '$.href') AS href, jstr(doc, '$.context') AS context, jstr(doc, '$.landmark') AS landmark,
    jstr(doc, '$.selector') AS selector, jbool(doc, '$.visible') AS visible,
    coalesce(CAST(json_transform(doc -> '$.flags', '["VARCHAR"]') AS VARCHAR[]), []) AS flags,
    jbool(doc, '$.needs_human') IS NOT FALSE AS name_approximated, doc AS unit
FROM jsonl_records WHERE kind = 'unit' AND is_object;

CREATE OR REPLACE VIEW audit_batch_lines AS
SELECT regexp_extract(source, '[^/]+$') AS batch, line, jstr(doc, '$.id') AS id
FROM jsonl_records WHERE kind = 'batch' AND is_object;
