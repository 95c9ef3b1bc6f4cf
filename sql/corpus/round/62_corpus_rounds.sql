-- corpus_rounds: one row per round that has any file in rounds/, in numeric order, with its report status
--   round: round number (round-10 sorts after round-9)
--   has_review: whether round-NN-review.jsonl exists
--   has_second_pass_input: whether round-NN-second-pass-input.jsonl exists
--   has_second_pass: whether round-NN-second-pass.jsonl exists
--   has_report: whether round-NN-report.md exists
--   quiet: whether the report carries STATUS: new-blocking-findings=no (a missing line is not quiet)
--   recency: 1 for the latest round, 2 for the one before, and so on
CREATE OR REPLACE VIEW corpus_rounds AS
WITH files AS (SELECT round, kind FROM raw_files WHERE present AND round IS NOT NULL),
report AS (
    SELECT round,
        bool_or(regexp_matches(text, 'STATUS:\s*new-blocking-findings\s*=\s*no\b')) AS says_no,
        bool_or(regexp_matches(text, 'STATUS:\s*new-blocking-findings\s*=\s*yes\b')) AS says_yes
    FROM raw_lines WHERE kind = 'report' GROUP BY round
)
SELECT f.round,
    bool_or(f.kind = 'review') AS has_review,
    bool_or(f.kind = 'second_pass_input') AS has_second_pass_input,
    bool_or(f.kind = 'second_pass') AS has_second_pass,
    bool_or(f.kind = 'report') AS has_report,
    coalesce(any_value(r.says_no) AND NOT any_value(r.says_yes), false) AS quiet,
    row_number() OVER (ORDER BY f.round DESC) AS recency
FROM files AS f LEFT JOIN report AS r USING (round)
GROUP BY f.round
ORDER BY f.round;
