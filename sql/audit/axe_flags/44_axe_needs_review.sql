-- axe_needs_review: axe-core could not decide on this element (an incomplete result): a person decides
--   type: finding
SELECT *
FROM audit_finding_facts
WHERE outcome = 'incomplete'
