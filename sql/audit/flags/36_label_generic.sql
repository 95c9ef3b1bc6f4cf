-- label_generic: the label is a generic word (input, field, text, ...)
--   type: field
SELECT *
FROM audit_field_facts
WHERE label <> '' AND matches_i(trim(label), '^(input|field|text|value|enter|select|search)$')
