-- corpus_warnings: findings that never change an exit code: a pass-b that no round's second-pass file recorded
--   source: corpus file path
--   line: 1-based line number
--   record_id: item id
--   field: the field concerned
--   code: warning code
--   message: what was found, in words
CREATE OR REPLACE VIEW corpus_warnings AS
WITH recorded AS (
    SELECT jstr(doc, '$.item_id') AS item_id, jstr(doc, '$.alt') AS alt, jstr(doc, '$.rationale') AS rationale
    FROM jsonl_records WHERE kind = 'second_pass' AND is_object
),
pass_b AS (
    SELECT i.source, i.line, i.id, unnest(i.gold_alt_passes) AS p FROM corpus_items AS i WHERE i.has_pass_b
)
SELECT source, line, id AS record_id, 'gold_alt_passes' AS field, 'unrecorded_second_pass' AS code,
       'pass-b of ' || id
           || ' appears in no rounds/round-NN-second-pass.jsonl with the same alt and rationale, so it cannot be shown to be blind' AS message
FROM pass_b
WHERE p.author = 'pass-b'
    AND NOT EXISTS (SELECT 1 FROM recorded AS r WHERE r.item_id = pass_b.id AND r.alt = p.alt
        AND r.rationale = p.rationale)
ORDER BY source, line;
