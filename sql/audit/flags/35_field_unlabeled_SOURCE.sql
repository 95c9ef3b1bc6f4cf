-- field_unlabeled_SOURCE: the field has no label (SOURCE says what it has instead: a placeholder or title alone; with the accessibility tree, a field with no name at all is field_no_accessible_name)
--   type: field
--   fact_class: unlabeled field
SELECT 'field_unlabeled_' || label_source AS flag
FROM audit_field_facts
WHERE label = '' AND (exposed IS NULL OR label_source <> 'none')
