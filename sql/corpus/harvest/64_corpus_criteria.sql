-- corpus_criteria: the coverage report, one row per bar: every sector (8-25% of the goal), every sub-type (at least 5%), the largest domain (at most 5%) and the largest page (at most 2 items); every item counts whatever its status, and an unmet bar is a warning, never an error
--   ord: report order
--   criterion: what is measured
--   actual: the measured value
--   target: the bar
--   unit: count
--   comparison: how actual must compare with target (>=, <=)
--   met: whether the bar is met
CREATE OR REPLACE VIEW corpus_criteria AS
WITH g AS (SELECT * FROM corpus_targets),
sectors AS (
    SELECT s.sector, count(i.id) AS n, min(s.ord) AS ord
    FROM (SELECT sector, row_number() OVER () AS ord FROM corpus_sectors
          UNION ALL SELECT DISTINCT sector, 100 FROM corpus_items WHERE sector IS NOT NULL
              AND sector NOT IN (SELECT sector FROM corpus_sectors)) AS s
    LEFT JOIN corpus_items AS i ON i.sector = s.sector
    GROUP BY s.sector
),
subtypes AS (
    SELECT s.subtype, s.category, count(i.id) AS n FROM corpus_subtypes AS s LEFT JOIN corpus_items AS i USING (subtype)
    GROUP BY s.subtype, s.category
),
rows AS (
    SELECT 10 + ord AS ord, 'sector ' || sector || ' at least' AS criterion, n AS actual, g.sector_min AS target,
        '>=' AS comparison FROM sectors, g
    UNION ALL
    SELECT 200 + ord, 'sector ' || sector || ' at most', n, g.sector_max, '<=' FROM sectors, g
    UNION ALL
    SELECT 400 + row_number() OVER (ORDER BY category, subtype), 'sub-type ' || subtype, n, g.subtype_min, '>='
        FROM subtypes, g
    UNION ALL
    SELECT 600, 'largest domain (' || coalesce((SELECT domain FROM corpus_concentration LIMIT 1), 'none') || ')',
        coalesce((SELECT max(items) FROM corpus_concentration), 0), g.domain_max, '<=' FROM g
    UNION ALL
    SELECT 700, 'largest page (' || coalesce((SELECT page_url FROM corpus_items
        WHERE page_url IS NOT NULL GROUP BY page_url ORDER BY count(*) DESC, page_url LIMIT 1), 'none') || ')',
        coalesce((SELECT max(n) FROM (SELECT count(*) AS n FROM corpus_items
            WHERE page_url IS NOT NULL GROUP BY page_url)), 0),
        g.per_page, '<=' FROM g
)
SELECT ord, criterion, actual, target, 'count' AS unit, comparison,
    CASE comparison WHEN '>=' THEN actual >= target ELSE actual <= target END AS met
FROM rows
ORDER BY ord;
