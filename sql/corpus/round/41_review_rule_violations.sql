-- review_rule_violations: one row per broken rule of a round review record beyond its field specs
--   source: review file path
--   line: 1-based line number
--   record_id: the reviewed item id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW review_rule_violations AS
WITH reviews AS (
    SELECT source, round AS file_round, line, doc, jstr(doc, '$.item_id') AS item_id, jint(doc, '$.round') AS round,
           jstr(doc, '$.verdict') AS verdict, jbool(doc, '$.blocking') AS blocking,
           jtype(doc, '$.required_change') AS required_change_type, jstr(doc, '$.required_change') AS required_change,
           CASE WHEN json_type(doc, '$.reason_codes') = 'ARRAY'
               THEN CAST(doc -> '$.reason_codes' AS JSON[]) END AS reason_codes
    FROM jsonl_records WHERE kind = 'review' AND is_object
),
codes AS (
    SELECT source, line, item_id, unnest(reason_codes) AS code_json FROM reviews WHERE reason_codes IS NOT NULL
)
SELECT source, line, item_id AS record_id, 'item_id' AS field, 'unknown_item' AS code,
       'item ' || item_id || ' is not in the corpus' AS message
FROM reviews WHERE item_id IS NOT NULL AND item_id NOT IN (SELECT id FROM corpus_items WHERE id IS NOT NULL)
UNION ALL
SELECT source, line, item_id, 'round', 'round_mismatch', 'round ' || round || ' in a file of round ' || file_round
FROM reviews WHERE round IS NOT NULL AND round <> file_round
UNION ALL
SELECT source, line, item_id, 'reason_codes', 'invalid_value', 'must hold at least one reason code'
FROM reviews WHERE len(reason_codes) = 0
UNION ALL
SELECT source, line, item_id, 'reason_codes', 'invalid_value', CAST(code_json AS VARCHAR) || ' is not a reason code'
FROM codes WHERE json_type(code_json) <> 'VARCHAR' OR (code_json ->> '$') NOT IN (SELECT code FROM corpus_reason_codes)
UNION ALL
SELECT source, line, item_id, 'reason_codes', 'clean_mismatch',
       CASE WHEN verdict = 'accept' THEN 'an accept must carry exactly ["CLEAN"]'
            ELSE 'CLEAN alone belongs to an accept, not a ' || verdict END
FROM reviews
WHERE verdict IN ('accept', 'revise', 'reject') AND reason_codes IS NOT NULL
    AND (verdict = 'accept') <> (len(reason_codes) = 1 AND coalesce(reason_codes[1] ->> '$', '') = 'CLEAN'
        AND json_type(reason_codes[1]) = 'VARCHAR')
UNION ALL
SELECT source, line, item_id, 'required_change', 'required_change_mismatch',
       CASE WHEN verdict = 'revise' THEN 'a revise verdict must say the required change'
            ELSE 'only a revise verdict carries a required change' END
FROM reviews
WHERE verdict IN ('accept', 'revise', 'reject') AND required_change_type IN ('string', 'null')
    AND (verdict = 'revise') <> coalesce(trim(required_change) <> '', false)
UNION ALL
SELECT source, line, item_id, 'blocking', 'accept_blocking', 'an accept cannot be blocking'
FROM reviews WHERE verdict = 'accept' AND blocking;
