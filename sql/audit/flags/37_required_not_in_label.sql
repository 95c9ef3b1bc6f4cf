-- required_not_in_label: a required field whose label and description do not say so
--   type: field
SELECT *
FROM audit_field_facts
WHERE required AND NOT matches_i(label || ' ' || coalesce(describedby_text, ''), 'required|\*')
