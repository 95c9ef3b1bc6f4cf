-- audit_family_destination_links: links named after the title of the page they lead to, in one container (a sidebar, breadcrumbs, a table of contents of other pages): each says where it goes by construction, so one answer per product and container holds for all
--   id: unit id
--   pattern: destination_links
--   rank: 2
--   key: product and landmark
--   question: the family's one question
CREATE OR REPLACE VIEW audit_family_destination_links AS
SELECT id, 'destination_links' AS pattern, 2 AS rank, product || ' · ' || coalesce(nullif(landmark, ''),
    'no landmark') AS key,
    'Do these links, each named after the title of the page it leads to, say where they go?' AS question
FROM audit_family_rows
WHERE type = 'link' AND plain AND names_destination AND NOT in_page;
