-- corpus_second_pass_answers: each blind second-pass answer, what applying it does, and whether it agrees with the passes already recorded
--   round: round of the answers file
--   line: line of the answer
--   item_id: answered item
--   alt: the blind pass's alt text
--   rationale: the blind pass's rationale
--   item_line: the item's line in the corpus file
--   action: append (new pass-b), already_applied (the same pass-b is recorded) or conflict (a different pass-b is recorded)
--   agrees: whether the alt equals every other pass's alt
--   other_alts: the other passes' alts, for the disagreement report
CREATE OR REPLACE VIEW corpus_second_pass_answers AS
WITH answers AS (
    SELECT round, line, jstr(doc, '$.item_id') AS item_id, jstr(doc, '$.alt') AS alt, jstr(doc,
        '$.rationale') AS rationale
    FROM jsonl_records WHERE kind = 'second_pass' AND is_object
)
SELECT a.round, a.line, a.item_id, a.alt, a.rationale, i.line AS item_line,
    CASE WHEN list_contains(i.gold_alt_passes, {'author': 'pass-b', 'alt': a.alt, 'rationale': a.rationale})
        THEN 'already_applied'
         WHEN i.has_pass_b THEN 'conflict'
         ELSE 'append' END AS action,
    coalesce(list_bool_and(list_transform(list_filter(i.gold_alt_passes, lambda p: p.author <> 'pass-b'),
        lambda p: p.alt = a.alt)), true) AS agrees,
    array_to_string(list_transform(list_filter(i.gold_alt_passes, lambda p: p.author <> 'pass-b'), lambda p: p.author
        || '="' || p.alt || '"'), ', ') AS other_alts
FROM answers AS a JOIN corpus_items AS i ON i.id = a.item_id;
