-- audit_family_chrome_links: links of the page's chrome, on at least four in five views of their product (menu bars, footers, skip links): the same controls on every page, so one answer per product and landmark holds for all
--   id: unit id
--   pattern: chrome_links
--   rank: 4
--   key: product and landmark
--   question: the family's one question
CREATE OR REPLACE VIEW audit_family_chrome_links AS
SELECT id, 'chrome_links' AS pattern, 4 AS rank, product || ' · ' || coalesce(nullif(landmark, ''),
    'no landmark') AS key,
    'Do these links, repeated on every page, each say where they go or what they do?' AS question
FROM audit_family_rows
WHERE type = 'link' AND plain AND product_views >= 3 AND view_count * 5 >= product_views * 4;
