-- jfi_disagrees: jfi captured the same element and its own flag for this failure did not fire: a person decides which tool is right
--   type: finding
SELECT *
FROM audit_finding_facts
WHERE agreement = 'disagrees'
