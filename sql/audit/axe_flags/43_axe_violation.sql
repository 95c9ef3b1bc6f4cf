-- axe_violation: axe-core reports this element as failing its rule (the row names the rule): a person confirms it
--   type: finding
SELECT *
FROM audit_finding_facts
WHERE outcome = 'violation'
