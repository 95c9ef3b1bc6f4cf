-- audit_family_in_page_links: links that lead to a section of the page they sit in (tables of contents, "#" and "¶" permalinks, heading self-links): they repeat the headings they point at, which are judged as headings, so one answer per product and place (landmark) holds for all: do they name the section they lead to?
--   id: unit id
--   pattern: in_page_links
--   rank: 1 (a unit joins the family of lowest rank it belongs to)
--   key: product and landmark
--   question: the family's one question
CREATE OR REPLACE VIEW audit_family_in_page_links AS
SELECT id, 'in_page_links' AS pattern, 1 AS rank, product || ' · ' || coalesce(nullif(landmark, ''),
    'no landmark') AS key,
    'Do these links to sections of their own page (tables of contents, permalinks, heading self-links) each name the section they lead to?' AS question
FROM audit_family_rows
WHERE type = 'link' AND plain AND in_page;
