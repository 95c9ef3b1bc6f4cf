-- jsonl_values: one row per top-level key of every JSON object record (long form, for field rules)
--   kind: what the file holds
--   source: file path
--   line: 1-based line number
--   record_id: the record's id or item_id
--   field: the key
--   value: the value as JSON
--   jtype: its JSON type (string, integer, number, boolean, array, object, null)
CREATE OR REPLACE VIEW jsonl_values AS
SELECT r.kind, r.source, r.line, r.record_id, e.key AS field, e.value AS value, jtype_name(e.type) AS jtype
FROM jsonl_records AS r, json_each(r.doc) AS e
WHERE r.is_object;
