-- audit_criteria: the WCAG 2.2 success criteria jfi's flags and questions evaluate, with their W3C Understanding page
--   sc: success criterion number (2.2 numbering)
--   handle: its short name
--   level: A, AA or AAA
--   wcag_id: its id in WCAG 2.2 (the fragment of https://www.w3.org/TR/WCAG22/#<id>)
--   help_url: the W3C Understanding WCAG 2.2 page for it
-- audit_act_rules: the ACT rules (W3C Accessibility Conformance Testing) a flag or a question implements
--   rule: the flag id or question id (question-<type>)
--   act_rule: the ACT rule id
--   act_name: the ACT rule's name
-- audit_rule_metadata: one row per rule jfi applies — each flag and each row type's question — with what every reader of its results needs: criteria, ACT rule, help URL, tags
--   rule: the flag id, or question-<type> for the question a row of that type asks
--   kind: flag or question
--   type: the unit type it applies to
--   sc: the WCAG success criteria it evaluates: for a rule implementing an ACT rule, the criteria the ACT rule maps to (audit_act_requirements; none for ffd0e9); empty for an axe-core finding, whose criteria come with its own rule
--   act_rule: the ACT rule id it implements (NULL where none)
--   help_url: the W3C Understanding page of its first criterion (NULL where none)
--   level: the WCAG level of its first criterion (A or AA; NULL where none)
--   informational: whether a flag only informs (never fails anything); false for questions
--   objective: whether a flag states a fact the tree shows (it fails by itself, no judgment needed: the fact classes of the worklist)
--   meaning: what the flag says, or the question in words
--   tags: wcag<digits> and act:<id> tags, as axe-core tags its rules
--   wcag_ids: the criteria's ids in WCAG 2.2 (https://www.w3.org/TR/WCAG22/#<id>)
CREATE OR REPLACE TABLE audit_criteria AS
SELECT sc, handle, level, slug AS wcag_id, 'https://www.w3.org/WAI/WCAG22/Understanding/' || slug || '.html' AS help_url
FROM (VALUES
    ('1.1.1', 'Non-text Content', 'A', 'non-text-content'),
    ('1.3.1', 'Info and Relationships', 'A', 'info-and-relationships'),
    ('2.4.2', 'Page Titled', 'A', 'page-titled'),
    ('2.4.4', 'Link Purpose (In Context)', 'A', 'link-purpose-in-context'),
    ('2.4.6', 'Headings and Labels', 'AA', 'headings-and-labels'),
    ('2.4.9', 'Link Purpose (Link Only)', 'AAA', 'link-purpose-link-only'),
    ('3.2.3', 'Consistent Navigation', 'AA', 'consistent-navigation'),
    ('3.2.4', 'Consistent Identification', 'AA', 'consistent-identification'),
    ('3.3.2', 'Labels or Instructions', 'A', 'labels-or-instructions'),
    ('4.1.2', 'Name, Role, Value', 'A', 'name-role-value')
) AS t(sc, handle, level, slug);

CREATE OR REPLACE TABLE audit_act_rules AS
WITH implemented AS (  -- a flag's ACT rule is in its file (audit_flag_rules); a question's is here
    SELECT DISTINCT flag AS rule, act_rule FROM audit_flag_rules WHERE act_rule IS NOT NULL
    UNION ALL SELECT * FROM (VALUES ('question-image', 'qt1vmo'), ('question-link', '5effbb'), ('question-heading',
        'b49b2e'),
        ('question-title', 'c4a8a4'), ('question-field', 'cc0f0a')) AS q(rule, act_rule)
)
SELECT i.rule, i.act_rule, n.act_name
FROM implemented AS i JOIN (VALUES
    ('23a2a8', 'Image has non-empty accessible name'), ('c487ae', 'Link has non-empty accessible name'),
    ('e086e5', 'Form field has non-empty accessible name'), ('ffd0e9', 'Heading has non-empty accessible name'),
    ('2779a5', 'HTML page has non-empty title'), ('qt1vmo', 'Image accessible name is descriptive'),
    ('5effbb', 'Link in context is descriptive'), ('b49b2e', 'Heading is descriptive'),
    ('c4a8a4', 'HTML page title is descriptive'), ('cc0f0a', 'Form field label is descriptive')
) AS n(act_rule, act_name) USING (act_rule);

CREATE OR REPLACE VIEW audit_rule_metadata AS
WITH own AS (  -- a flag written for several types (axe_disagrees) is one rule over all of them
    SELECT flag AS rule, 'flag' AS kind, CASE WHEN count(DISTINCT type) > 1 THEN '*' ELSE any_value(type) END AS type,
        list(DISTINCT sc ORDER BY sc) FILTER (WHERE sc <> '') AS sc, bool_and(informational) AS informational,
        any_value(meaning) AS meaning, min(ord) AS ord, any_value(fact_class) AS fact_class
    FROM audit_flag_rules GROUP BY flag
    UNION ALL
    SELECT 'question-' || type, 'question', type, CASE WHEN sc = '' THEN [] ELSE [sc] END, false, question,
        1000 + row_number() OVER (), NULL
    FROM audit_questions
),
rules AS (  -- a rule implementing an ACT rule evaluates the criteria the ACT rule maps to
    SELECT o.* REPLACE (CASE WHEN q.act_rule IS NOT NULL THEN q.sc ELSE o.sc END AS sc)
    FROM own AS o LEFT JOIN audit_act_rules AS x USING (rule) LEFT JOIN audit_act_requirements AS q USING (act_rule)
)
SELECT r.rule, r.kind, r.type, coalesce(r.sc, []) AS sc, a.act_rule, c.help_url, c.level, r.informational,
    r.kind = 'flag' AND r.fact_class IS NOT NULL AS objective,
    r.meaning,
    list_transform(coalesce(r.sc, []), lambda s: 'wcag' || replace(s, '.', ''))
        || CASE WHEN a.act_rule IS NULL THEN [] ELSE ['act:' || a.act_rule] END AS tags,
    (SELECT coalesce(list(coalesce(w.wcag_id, 'sc' || replace(u.s, '.', '-')) ORDER BY u.s), [])
     FROM unnest(coalesce(r.sc, [])) AS u(s) LEFT JOIN audit_criteria AS w ON w.sc = u.s) AS wcag_ids
FROM rules AS r
LEFT JOIN audit_act_rules AS a USING (rule)
LEFT JOIN audit_criteria AS c ON c.sc = r.sc[1]
ORDER BY r.ord;
