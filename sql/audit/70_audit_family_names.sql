-- audit_family_names: rows of one type with the same name (an axe-core rule's findings share its help text: one family per rule): the same words say the same thing, so one answer holds for all
--   id: unit id
--   pattern: names
--   rank: 7
--   key: type and normalised name
--   question: the family's one question
CREATE OR REPLACE VIEW audit_family_names AS
SELECT id, 'names' AS pattern, 7 AS rank, type || ' · ' || name_norm AS key,
    CASE WHEN type = 'finding' THEN 'axe-core says "' || name_norm || '" for each of these components: does it hold?'
         ELSE 'Does "' || name_norm || '" say the same true thing for each of these rows?' END AS question
FROM audit_family_rows
WHERE name_norm <> '';
