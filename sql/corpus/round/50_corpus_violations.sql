-- corpus_violations: every error in the corpus project (items, reviews, second passes, round reports); any row refuses the corpus
--   source: file path
--   line: 1-based line number
--   record_id: the item id the record names
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW corpus_violations AS
SELECT source, line, record_id, field, code, message FROM (
    SELECT source, line, record_id, field, code, message FROM field_violations WHERE kind IN ('item', 'review',
        'second_pass')
    UNION ALL SELECT * FROM shared_item_rule_violations
    UNION ALL SELECT * FROM item_rule_violations
    UNION ALL SELECT * FROM review_rule_violations
    UNION ALL SELECT * FROM second_pass_rule_violations
    UNION ALL SELECT * FROM report_rule_violations
)
ORDER BY source, line, field NULLS FIRST, code;
