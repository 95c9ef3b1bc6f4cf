-- audit_family_title_templates: page titles made by one template, the same site part before or after a separator (" - ", " | ", " — ", " · ", " :: ") with the page's own part beside it: one answer holds for all (does the page's part name the page?), with the titles listed
--   id: unit id
--   pattern: title_templates
--   rank: 5
--   key: product and the shared part, with where it stands
--   question: the family's one question
CREATE OR REPLACE VIEW audit_family_title_templates AS
WITH parts AS (
    SELECT id, product, regexp_extract(name_norm, '^.+ (?:-|\||—|–|·|::) (.+)$', 1) AS suffix,
        regexp_extract(name_norm, '^(.+?) (?:-|\||—|–|·|::) .+$', 1) AS prefix
    FROM audit_family_rows WHERE type = 'title' AND plain
),
keyed AS (
    SELECT id, product, '… – ' || suffix AS template FROM parts WHERE suffix <> ''
    UNION ALL SELECT id, product, prefix || ' – …' FROM parts WHERE prefix <> ''
),
counted AS (SELECT *, count(*) OVER (PARTITION BY product, template) AS shared FROM keyed),
best AS (  -- each title's most shared template
    SELECT id, product, template FROM counted QUALIFY row_number() OVER (PARTITION BY id ORDER BY shared DESC,
        template) = 1
)
SELECT id, 'title_templates' AS pattern, 5 AS rank, product || ' · ' || template AS key,
    'Does each of these titles, made as "' || template || '", name its page distinctly?' AS question
FROM best;
