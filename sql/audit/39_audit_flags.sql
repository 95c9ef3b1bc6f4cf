-- audit_flags: one row per flag that fired on an occurrence: the flag files of sql/audit/flags/ (one per rule: its condition plain SQL over its type's facts view), assembled by the rulebook; a flag that is not informational never fires on an element the browser does not expose (exposed IS NOT FALSE, applied by the assembly)
--   type: unit type
--   product: product
--   pos: position of the view
--   i: element index in the page
--   unit_key: dedupe key of the unit the occurrence belongs to
--   flag: the flag's name
--   ord: the rule's order
--   rule: the rule's id
CREATE OR REPLACE TABLE audit_flags AS
SELECT * FROM flag_files('audit/flags');
