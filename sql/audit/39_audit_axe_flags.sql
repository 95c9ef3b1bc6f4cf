-- audit_axe_flags: the flags of the comparison with axe-core, in audit_flags' shape: the flag files of sql/audit/axe_flags/ (one per rule, its condition plain SQL over its facts), assembled as audit_flags' are. A finding says whether it is a violation or needs review, and whether jfi agrees; a jfi occurrence whose objective flag axe-core did not report says so
--   type: unit type
--   product: product
--   pos: position of the view
--   i: element (or axe node) index in the page
--   unit_key: dedupe key of the unit the occurrence belongs to
--   flag: the flag's name
--   ord: the rule's order
--   rule: the rule's id
CREATE OR REPLACE VIEW audit_axe_flags AS
SELECT * FROM flag_files('audit/axe_flags');
