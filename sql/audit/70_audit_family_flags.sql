-- audit_family_flags: rows (not axe-core's findings, which are families by rule) that carry the same decisive flags: the same deterministic fact, so one answer holds for all
--   id: unit id
--   pattern: flags
--   rank: 6
--   key: type and flag pattern
--   question: the family's one question
CREATE OR REPLACE VIEW audit_family_flags AS
SELECT id, 'flags' AS pattern, 6 AS rank, type || ' · ' || flag_pattern AS key,
    'These rows are all flagged ' || flag_pattern || ': does one answer hold for each?' AS question
FROM audit_family_rows
WHERE type <> 'finding' AND flag_pattern <> '';
