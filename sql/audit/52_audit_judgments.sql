-- audit_judgments: the judged line for each unit, from batches/*.judged.jsonl
--   id: unit id
--   batch: judged file name
--   judgment: yes, no or unsure
--   confidence: high, medium or low
--   rationale: why
--   fix: the fix (empty when yes)
--   needs_human: whether a person must look
--   drafted_by: who or what drafted it
-- audit_spot_checks: the spot check of each unit, from spot-checks.jsonl
--   id: unit id
--   spot_check: agree or overturn
--   judgment: the judgment an overturn puts in place
--   note: the checker's note
-- audit_violations: every problem in the judged batches and spot checks; any row refuses sample and merge
--   source: file path
--   line: 1-based line number
--   record_id: unit id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW audit_judgments AS
SELECT j.id, j.batch, j.judgment, j.confidence, j.rationale, j.fix, j.needs_human, j.drafted_by
FROM audit_judged_lines AS j;  -- columns named with the table (a macro's parameter of the same name, as ruling's
-- judgment, would clash with a bare one where the view is read inside it)

CREATE OR REPLACE VIEW audit_spot_checks AS
SELECT jstr(doc, '$.id') AS id, jstr(doc, '$.spot_check') AS spot_check, jstr(doc, '$.judgment') AS judgment,
    jstr(doc, '$.note') AS note
FROM jsonl_records WHERE kind = 'spot_check' AND is_object;

CREATE OR REPLACE VIEW audit_violations AS
SELECT source, line, record_id, field, code, message FROM (
    SELECT source, line, record_id, field, code, message FROM field_violations WHERE kind IN ('judged', 'spot_check')
    UNION ALL SELECT * FROM audit_judged_violations
)
ORDER BY source, line, field NULLS FIRST, code;
