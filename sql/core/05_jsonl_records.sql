-- jsonl_records: one row per non-blank line of every JSONL input, parsed when it is a JSON object
--   kind: what the file holds
--   source: file path
--   round: round number from the file name
--   line: 1-based line number
--   text: the line as read
--   is_json: whether the line is valid JSON
--   is_object: whether the line is a JSON object
--   doc: the object (NULL unless is_object)
--   record_id: the record's id or item_id when it is a string
CREATE OR REPLACE VIEW jsonl_records AS
WITH parsed AS (
    SELECT kind, source, round, line, text, json_valid(text) AS is_json
    FROM raw_lines WHERE kind <> 'report'
)
SELECT kind, source, round, line, text, is_json,
       coalesce(is_json AND json_type(CASE WHEN is_json THEN text END) = 'OBJECT', false) AS is_object,
       CASE WHEN is_json AND json_type(CASE WHEN is_json THEN text END) = 'OBJECT' THEN text::JSON END AS doc,
       coalesce(jstr(CASE WHEN is_json THEN text END, '$.id'), jstr(CASE WHEN is_json THEN text END, '$.item_id')) AS record_id
FROM parsed;
