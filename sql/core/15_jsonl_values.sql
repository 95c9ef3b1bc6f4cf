-- jsonl_values: one row per top-level key of every JSON object record of a kind that has field specs (the long form, for analysts and the rules that read records key by key; computed when read)
--   kind: what the file holds
--   source: file path
--   round: round number from the file name
--   line: 1-based line number
--   record_id: the record's id or item_id
--   field: the key
--   value: the value as JSON
--   jtype: its JSON type (string, integer, number, boolean, array, object, null)
--   str: the value when it is a string
--   int: the value when it is an integer
--   bool: the value when it is a boolean
CREATE OR REPLACE VIEW jsonl_values AS
WITH checked AS (  -- the long form is made only for the records of kinds with specs (filtered before json_each)
    SELECT kind, source, round, line, record_id, doc FROM jsonl_records
    WHERE is_object AND kind IN (SELECT kind FROM field_specs)
),
pairs AS (
    SELECT r.kind, r.source, r.round, r.line, r.record_id, e.key AS field, e.value AS value, jtype_name(e.type) AS jtype
    FROM checked AS r, json_each(r.doc) AS e
)
SELECT *,
    CASE WHEN jtype = 'string' THEN value ->> '$' END AS str,
    CASE WHEN jtype = 'integer' THEN TRY_CAST(value ->> '$' AS HUGEINT) END AS int,
    CASE WHEN jtype = 'boolean' THEN (value ->> '$') = 'true' END AS bool
FROM pairs;
