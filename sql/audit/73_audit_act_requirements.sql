-- audit_act_requirements: the WCAG criteria each ACT rule jfi implements maps to, as the ACT Rules Community Group's test cases state them (ruleAccessibilityRequirements, for conformance); an ACT rule with none maps to no criterion
--   act_rule: the ACT rule id
--   sc: the success criteria it maps to
--   wcag_ids: their ids in WCAG 2.2 (https://www.w3.org/TR/WCAG22/#<id>)
-- audit_act_checks: the objective checks that implement an ACT rule on their own: the flag that fails it and the unit type it applies to
--   rule: the flag id
--   act_rule: the ACT rule id
--   type: the unit type the check applies to
CREATE OR REPLACE TABLE audit_act_requirements AS
SELECT * FROM (VALUES
    ('23a2a8', ['1.1.1'], ['non-text-content']),
    ('c487ae', ['4.1.2', '2.4.4', '2.4.9'], ['name-role-value', 'link-purpose-in-context', 'link-purpose-link-only']),
    ('e086e5', ['4.1.2'], ['name-role-value']),
    ('ffd0e9', []::VARCHAR[], []::VARCHAR[]),
    ('2779a5', ['2.4.2'], ['page-titled']),
    ('qt1vmo', ['1.1.1'], ['non-text-content']),
    ('5effbb', ['2.4.4'], ['link-purpose-in-context']),
    ('cc0f0a', ['2.4.6'], ['headings-and-labels']),
    ('c4a8a4', ['2.4.2'], ['page-titled']),
    ('b49b2e', ['2.4.6'], ['headings-and-labels'])
) AS t(act_rule, sc, wcag_ids);

CREATE OR REPLACE TABLE audit_act_checks AS
SELECT flag AS rule, act_rule, type FROM audit_flag_rules WHERE act_check;
