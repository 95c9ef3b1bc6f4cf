-- audit_judged_lines: every judged line of batches/*.judged.jsonl with its fields read once, a table each line of which is derived once (kept for the files that did not change): what audit_judgments shows and every check of a judged line reads
--   source: judged file path
--   line: 1-based line number
--   id: unit id
--   batch: judged file name
--   judgment: yes, no or unsure
--   confidence: high, medium or low
--   rationale: why
--   fix: the fix (empty when yes)
--   needs_human: whether a person must look
--   drafted_by: who or what drafted it
CREATE OR REPLACE TABLE audit_judged_lines AS
SELECT source, line, jval_str(v[1]) AS id, regexp_extract(source, '[^/]+$') AS batch, jval_str(v[2]) AS judgment,
    jval_str(v[3]) AS confidence, jval_str(v[4]) AS rationale, jval_str(v[5]) AS fix,
    jbool(v[6], '$') AS needs_human, jval_str(v[7]) AS drafted_by
FROM (SELECT source, line, json_extract(doc, ['$.id', '$.judgment', '$.confidence', '$.rationale', '$.fix',
                                             '$.needs_human', '$.drafted_by']) AS v  -- one pass over each line's JSON
      FROM jsonl_records WHERE kind = 'judged' AND is_object);
