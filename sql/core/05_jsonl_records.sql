-- jsonl_records: one row per non-blank line of every JSONL input, parsed once when the store is built (a table, computed from raw_lines)
--   kind: what the file holds
--   source: file path
--   round: round number from the file name
--   line: 1-based line number
--   text: the line as read
--   is_json: whether the line is valid JSON
--   is_object: whether the line is a JSON object
--   doc: the object (NULL unless is_object)
--   record_id: the record's id or item_id when it is a string
CREATE OR REPLACE TABLE jsonl_records AS
WITH parsed AS (
    SELECT kind, source, round, line, text, json_valid(text) AS is_json
    FROM raw_lines WHERE kind <> 'report'
),
objects AS (
    -- a valid JSON text is an object exactly when its first non-blank character is {
    SELECT *, is_json AND starts_with(ltrim(text), '{') AS is_object FROM parsed
)
SELECT kind, source, round, line, text, is_json, is_object,
       CASE WHEN is_object THEN text::JSON END AS doc,
       CASE WHEN is_object THEN list_filter(json_extract(text, ['$.id', '$.item_id']), lambda v: json_type(v) = 'VARCHAR')[1] ->> '$' END AS record_id
FROM objects;
