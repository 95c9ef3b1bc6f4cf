-- jsonl_records: one row per non-blank line of every JSONL input, parsed once when the store is built (a table, computed from raw_lines, which keeps each line's text)
--   kind: what the file holds
--   source: file path
--   round: round number from the file name
--   line: 1-based line number
--   is_json: whether the line is valid JSON (RFC 8259: DuckDB's json_valid, and the reader found no trailing comma, NaN, lone surrogate or the like, see raw_json_problems)
--   is_object: whether the line is a JSON object
--   doc: the object (NULL unless is_object)
--   record_id: the record's id or item_id when it is a string
CREATE OR REPLACE TABLE jsonl_records AS
WITH not_strict AS (SELECT DISTINCT source, line FROM raw_json_problems WHERE starts_with(message, 'not valid JSON')),
parsed AS (
    SELECT r.kind, r.source, r.round, r.line, r.text, json_valid(r.text) AND n.line IS NULL AS is_json
    FROM raw_lines AS r LEFT JOIN not_strict AS n USING (source, line) WHERE r.kind <> 'report'
),
objects AS (
    -- a valid JSON text is an object exactly when its first non-blank character is {
    SELECT *, is_json AND starts_with(ltrim(text), '{') AS is_object FROM parsed
)
SELECT kind, source, round, line, is_json, is_object,
       CASE WHEN is_object THEN text::JSON END AS doc,
       CASE WHEN is_object THEN list_filter(json_extract(text, ['$.id', '$.item_id']), lambda v: json_type(v) = 'VARCHAR')[1] ->> '$' END AS record_id
FROM objects;
