-- corpus_violations: every error in a harvest project (items and review batches); any row refuses the corpus
--   source: file path
--   line: 1-based line number
--   record_id: item id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW corpus_violations AS
SELECT source, line, record_id, field, code, message FROM (
    SELECT source, line, record_id, field, code, message FROM field_violations WHERE kind IN ('item', 'batch')
    UNION ALL SELECT * FROM shared_item_rule_violations
    UNION ALL SELECT * FROM harvest_item_rule_violations
    UNION ALL SELECT * FROM batch_rule_violations
)
ORDER BY source, line, field NULLS FIRST, code;
