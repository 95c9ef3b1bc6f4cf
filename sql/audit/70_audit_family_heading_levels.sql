-- audit_family_heading_levels: headings of one level in one landmark of a product (the section headings of its chapters): one answer holds for all, with a sample of headings and the text under them to look at
--   id: unit id
--   pattern: heading_levels
--   rank: 5
--   key: product, level and landmark
--   question: the family's one question
CREATE OR REPLACE VIEW audit_family_heading_levels AS
SELECT id, 'heading_levels' AS pattern, 5 AS rank, product || ' · ' || level || ' · ' || coalesce(nullif(landmark, ''),
    'no landmark') AS key,
    'Does each of these ' || level || ' headings say what the section under it is about?' AS question
FROM audit_family_rows
WHERE type = 'heading' AND plain AND coalesce(level, '') <> '';
