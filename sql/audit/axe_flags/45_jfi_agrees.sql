-- jfi_agrees: jfi's own flag for the same failure fired on the same element
--   type: finding
--   informational: true
SELECT *
FROM audit_finding_facts
WHERE agreement = 'agrees'
