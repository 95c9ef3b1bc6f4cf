-- audit_family_item_links: links repeated per item inside one container pattern with the same name and different destinations ("Source", "Run", "Read more", "Next chapter"): the same wording in the same place, so one answer holds for all: does the name, with its item, say where each goes? (The same name leading to different places is what the pattern is: a row whose only flag says so belongs here)
--   id: unit id
--   pattern: item_links
--   rank: 3
--   key: product, name and container pattern
--   question: the family's one question
CREATE OR REPLACE VIEW audit_family_item_links AS
WITH links AS (
    SELECT * FROM audit_family_rows
    WHERE type = 'link' AND name_norm <> '' AND (plain OR (NOT unsure
        AND flag_pattern = 'same_name_different_hrefs_in_page'))
),
spread AS (  -- only where a name's links differ in href can their destinations differ: the others are not parsed
    SELECT product, name_norm, shape FROM links GROUP BY ALL HAVING count(DISTINCT href) >= 2
),
items AS (
    SELECT l.*, count(DISTINCT dest(l.href)) OVER (PARTITION BY l.product, l.name_norm, l.shape) AS destinations
    FROM links AS l SEMI JOIN spread USING (product, name_norm, shape)
)
SELECT id, 'item_links' AS pattern, 3 AS rank, product || ' · "' || name_norm || '" · ' || shape AS key,
    'Does "' || name_norm || '", read with the item it sits in, say where each of these links goes?' AS question
FROM items
WHERE destinations >= 2;
