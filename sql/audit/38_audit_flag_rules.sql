-- is_decisive: whether a flag counts (is not informational): a unit is "flagged" when one of its flags is decisive
-- audit_flag_rules: the deterministic flags, one row per rule and unit type, as their files say (sql/audit/flags/ and, for the comparison with axe-core, sql/audit/axe_flags/: a file per flag with its meaning, metadata and condition; jfi/flagbook.py says the format); `jfi schema` and the docs list them. Flags are evidence, never verdicts
--   ord: rule order (a unit's flags are listed in the order they first fired, then by this)
--   flag: flag id (N, SOURCE and EXT stand for the number, name source or file type in the flag's name)
--   type: unit type the rule applies to (its facts view is audit_<type>_facts)
--   sc: WCAG success criterion of that type (audit_questions)
--   informational: whether the flag only informs (never counts as "flagged" when sampling)
--   act_rule: the ACT rule the flag implements (NULL where none)
--   act_check: whether it implements that ACT rule on its own (an objective check with an outcome per view)
--   fact_class: the fact class a ratifier signs once (NULL for a flag that needs a judgment)
--   meaning: what the flag says, in words
--   pattern: regular expression matching every name the flag takes
CREATE OR REPLACE TABLE audit_flag_rules AS
SELECT r.ord, r.flag, r.type, q.sc, r.informational, r.act_rule, r.act_check, r.fact_class, r.meaning,
    '^' || regexp_replace(replace(replace(replace(replace(replace(r.flag, 'SOURCE', '.+'), 'EXT', '[a-z0-9]+'),
        '_N_', '_[0-9]+_'), 'hN', 'h[0-9]+'), 'hM', 'h[0-9]+'), '_N$', '_[0-9]+') || '$' AS pattern
FROM (SELECT * FROM flag_rules('audit/flags') UNION ALL SELECT * FROM flag_rules('audit/axe_flags')) AS r
JOIN audit_questions AS q USING (type);

CREATE OR REPLACE MACRO is_decisive(candidate) AS
    NOT EXISTS (SELECT 1 FROM audit_flag_rules AS r WHERE r.informational AND regexp_full_match(candidate, r.pattern));
