-- corpus_reviews: every well-formed review record, with the round from its file name
--   round: round number of the review file
--   source: review file path
--   line: 1-based line number
--   item_id: reviewed item
--   verdict: accept, revise or reject
--   reason_codes: reason codes as text
--   evidence: what the reviewer checked
--   required_change: what a revise asks for
--   blocking: whether the finding blocks acceptance
--   is_latest: whether this is the item's latest review (highest round, last line)
CREATE OR REPLACE VIEW corpus_reviews AS
SELECT round, source, line, jstr(doc, '$.item_id') AS item_id, jstr(doc, '$.verdict') AS verdict,
    CAST(doc -> '$.reason_codes' AS VARCHAR) AS reason_codes, jstr(doc, '$.evidence') AS evidence,
    jstr(doc, '$.required_change') AS required_change, jbool(doc, '$.blocking') AS blocking,
    row_number() OVER (PARTITION BY jstr(doc, '$.item_id') ORDER BY round DESC, line DESC) = 1 AS is_latest
FROM jsonl_records
WHERE kind = 'review' AND is_object AND jstr(doc, '$.item_id') IS NOT NULL;
