-- batch_rule_violations: one row per broken rule of a review batch record: the item must exist and be reviewed once, and a keep needs a good alt
--   source: batch file path
--   line: 1-based line number
--   record_id: the item id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW batch_rule_violations AS
WITH b AS (
    SELECT source, round AS batch, line, jstr(doc, '$.item_id') AS item_id, jstr(doc, '$.verdict') AS verdict,
        jstr(doc, '$.alt_quality') AS alt_quality
    FROM jsonl_records WHERE kind = 'batch' AND is_object
)
SELECT source, line, item_id AS record_id, 'item_id' AS field, 'unknown_item' AS code,
       'batch ' || batch || ' reviews ' || item_id || ', which is not in the corpus' AS message
FROM b WHERE item_id IS NOT NULL AND item_id NOT IN (SELECT id FROM corpus_items WHERE id IS NOT NULL)
UNION ALL
SELECT source, line, item_id, 'alt_quality', 'keep_not_good', 'a keep needs alt_quality good, not ' || alt_quality
FROM b WHERE verdict = 'keep' AND alt_quality IS NOT NULL AND alt_quality <> 'good'
UNION ALL
SELECT source, line, item_id, 'item_id', 'reviewed_twice',
       item_id || ' is already reviewed in ' || first_source || ' line ' || first_line
FROM (SELECT *, first_value(source) OVER w AS first_source, first_value(line) OVER w AS first_line,
             row_number() OVER w AS nth
      FROM b WHERE item_id IS NOT NULL WINDOW w AS (PARTITION BY item_id ORDER BY batch, line))
WHERE nth > 1;
