-- audit_gate_levels: the fail levels of `jfi audit gate`, each with the results that are findings at it
--   fail_on: the level
--   meaning: which results are findings at it
-- audit_gate_findings: the findings of `jfi audit gate`: one row per result of audit_results that is a finding at a fail level (objective: a flag stating a fact; decisive: any flag that counts; ratified-no: a question a person ratified no)
--   fail_on: the level
--   fingerprint: the result's stable id (unit id | flag or question)
--   rule: the rule
--   id: unit id
--   name: the unit's name
--   views: the views it appears on
--   flag: the flag (NULL for a question)
--   kind: flag or question
--   meaning: what the rule says
CREATE OR REPLACE TABLE audit_gate_levels AS
SELECT * FROM (VALUES
    ('objective', 'a flag that states a fact the browser''s tree shows fails'),
    ('decisive', 'any flag that counts (not informational) fails'),
    ('ratified-no', 'a question a person ratified no fails')
) AS t(fail_on, meaning);

CREATE OR REPLACE VIEW audit_gate_findings AS
SELECT l.fail_on, r.fingerprint, r.rule, r.id, r.name, r.views, r.flag, r.kind, r.meaning
FROM audit_results AS r
JOIN audit_gate_levels AS l ON CASE l.fail_on
    WHEN 'objective' THEN r.kind = 'flag' AND r.objective
    WHEN 'decisive' THEN r.kind = 'flag' AND r.decisive
    WHEN 'ratified-no' THEN r.kind = 'question' AND r.outcome = 'failed' END;
