-- jsonl_records: one row per non-blank line of every JSONL input, parsed once when the store is built (a table, computed from raw_lines, which keeps each line's text); the built units of judgment-units.json are not in it (audit_built_units reads them from their text)
--   kind: what the file holds
--   source: file path
--   round: round number from the file name
--   line: 1-based line number
--   is_json: whether the line is valid JSON (RFC 8259: DuckDB reads it as JSON, and the reader found no trailing comma, NaN, lone surrogate or the like, see raw_json_problems)
--   is_object: whether the line is a JSON object (white space before it allowed, as RFC 8259 allows)
--   doc: the object (NULL unless is_object)
--   record_id: the record's id or item_id when it is a string
--   shape: the object's top-level keys and the JSON types of their values, in the object's order (JSON: keys, types), for
--     the kinds with field specs: what field_violations checks once per shape, computed once per line
CREATE OR REPLACE TABLE jsonl_records AS
WITH not_strict AS (SELECT DISTINCT source, line FROM raw_json_problems WHERE starts_with(message, 'not valid JSON')),
parsed AS (  -- each line parsed once: the cast is NULL where the line is not JSON (as json_valid would say)
    SELECT r.kind, r.source, r.round, r.line, TRY_CAST(r.text AS JSON) AS j, n.line IS NULL AS strict
    -- not the built units' lines: jfi's own serialisation of judgment-units.json, read by audit_built_units
    FROM raw_lines AS r LEFT JOIN not_strict AS n USING (source, line) WHERE r.kind NOT IN ('report', 'unit')
),
objects AS (
    SELECT *, j IS NOT NULL AND strict AS is_json, j IS NOT NULL AND strict AND json_type(j) = 'OBJECT' AS is_object
    FROM parsed
)
SELECT kind, source, round, line, is_json, is_object,
       CASE WHEN is_object THEN j END AS doc,
       CASE WHEN is_object THEN list_filter(json_extract(j, ['$.id', '$.item_id']),
           lambda v: json_type(v) = 'VARCHAR')[1] ->> '$' END AS record_id,
       CASE WHEN is_object AND kind IN (SELECT kind FROM field_specs)
           THEN to_json({'keys': json_keys(j), 'types': json_type(j, '$.*')}) END AS shape
FROM objects;
