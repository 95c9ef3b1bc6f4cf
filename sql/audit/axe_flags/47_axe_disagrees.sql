-- axe_disagrees: axe-core ran its rule for this failure on this view and did not report it: a person decides which tool is right
--   type: title heading link image field
SELECT *
FROM audit_axe_unreported
