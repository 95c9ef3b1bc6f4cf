-- corpus_redundant_starters: openings a gold alt must not start with (case-insensitive, whole words)
--   starter: the opening phrase, lower-case
-- corpus_reason_codes: the vocabulary of review reason codes
--   code: reason code as written in review records
CREATE OR REPLACE TABLE corpus_redundant_starters AS
SELECT * FROM (VALUES ('link to'), ('links to'), ('button for'), ('button to'), ('icon of'), ('icon for'),
    ('image of'), ('graphic of'), ('picture of'), ('go to link')) AS t(starter);

CREATE OR REPLACE TABLE corpus_reason_codes AS
SELECT * FROM (VALUES ('CLEAN'), ('UNVERIFIABLE-SOURCE'), ('CONTEXT-INACCURATE'), ('NOT-FUNCTIONAL'),
    ('MISCLASSIFIED'), ('APPEARANCE-DESCRIPTION'), ('REDUNDANCY-MISSED'), ('WRONGLY-EMPTY'),
    ('REDUNDANT-STARTER'), ('TOO-VERBOSE'), ('ASSUMPTION'), ('NO-RATIONALE'), ('LEAKAGE'),
    ('NON-DISCRIMINATING'), ('DUPLICATE'), ('MISSING-FIELD'), ('NO-SECOND-PASS'), ('NO-IMAGE-COPY'),
    ('LICENSE-UNCLEAR')) AS t(code);
