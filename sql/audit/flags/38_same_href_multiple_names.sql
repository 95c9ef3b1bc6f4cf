-- same_href_multiple_names: links to one destination carry different names across the product's views
--   type: ident
SELECT *
FROM audit_ident_facts
