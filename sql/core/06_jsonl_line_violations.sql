-- jsonl_line_violations: every JSONL line that is not valid JSON (RFC 8259: no trailing comma, comment, single quote, NaN or lone surrogate), repeats a key in one object, nests too deeply, or is not a JSON object, in any input kind
--   kind: what the file holds
--   source: file path
--   line: 1-based line number
--   record_id: always NULL (such a line names no record)
--   field: the repeated key, else NULL (the whole line is at fault)
--   code: invalid_json or not_an_object
--   message: what is wrong, in words
CREATE OR REPLACE VIEW jsonl_line_violations AS
SELECT kind, source, line, record_id, CAST(NULL AS VARCHAR) AS field,
    CASE WHEN is_json THEN 'not_an_object' ELSE 'invalid_json' END AS code,
    CASE WHEN is_json THEN 'line is JSON but not an object' ELSE 'line is not valid JSON' END AS message
FROM jsonl_records AS r
WHERE NOT is_object  -- a line the reader found not strict JSON is named once, by the reader's message below
    AND NOT EXISTS (SELECT 1 FROM raw_json_problems AS p WHERE p.source = r.source AND p.line = r.line
                    AND starts_with(p.message, 'not valid JSON'))
UNION ALL
SELECT kind, source, line, NULL, field, 'invalid_json', message FROM raw_json_problems;
