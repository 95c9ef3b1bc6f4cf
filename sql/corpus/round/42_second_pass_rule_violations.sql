-- second_pass_rule_violations: one row per broken rule of a blind second-pass answer beyond its field specs
--   source: second-pass file path
--   line: 1-based line number
--   record_id: the answered item id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW second_pass_rule_violations AS
WITH answers AS (
    SELECT source, round, line, jstr(doc, '$.item_id') AS item_id
    FROM jsonl_records WHERE kind = 'second_pass' AND is_object
),
handed_out AS (
    SELECT DISTINCT round, jstr(doc, '$.item_id') AS item_id
    FROM jsonl_records WHERE kind = 'second_pass_input' AND is_object
)
SELECT source, line, item_id AS record_id, 'item_id' AS field, 'unknown_item' AS code,
       'item ' || item_id || ' was not handed out in round-' || printf('%02d', round)
           || '-second-pass-input.jsonl' AS message
FROM answers AS a WHERE item_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM handed_out AS h WHERE h.round = a.round AND h.item_id = a.item_id)
UNION ALL
SELECT source, line, item_id, 'item_id', 'duplicate_id', 'item ' || item_id
    || ' is answered more than once in this file'
FROM (SELECT *, row_number() OVER (PARTITION BY source, item_id ORDER BY line) AS nth FROM answers
    WHERE item_id IS NOT NULL)
WHERE nth > 1;
