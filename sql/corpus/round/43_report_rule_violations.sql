-- report_rule_violations: round reports that round-v2's validator refuses: a round-NN-report.md without a line STATUS: new-blocking-findings=yes or =no (round-v1 reads such a report as not quiet, never as an error)
--   source: report file path
--   line: 1 (the report as a whole)
--   record_id: NULL
--   field: STATUS
--   code: missing_status
--   message: what is wrong, in words
CREATE OR REPLACE VIEW report_rule_violations AS
SELECT f.source, 1 AS line, CAST(NULL AS VARCHAR) AS record_id, 'STATUS' AS field, 'missing_status' AS code,
    'a round report needs a line STATUS: new-blocking-findings=yes or STATUS: new-blocking-findings=no' AS message
FROM raw_files AS f
WHERE f.kind = 'report' AND f.present AND (SELECT profile FROM jfi_run) = 'round-v2'
    AND NOT EXISTS (SELECT 1 FROM raw_lines AS l WHERE l.kind = 'report' AND l.source = f.source
                    AND regexp_matches(l.text, 'STATUS:\s*new-blocking-findings\s*=\s*(yes|no)\b'));
