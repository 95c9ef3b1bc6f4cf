-- corpus_sectors: the seven sectors of the harvest seed lists (upstream's README; its validator takes any non-empty sector and only warns)
--   sector: sector name as written in items
CREATE OR REPLACE TABLE corpus_sectors AS
SELECT * FROM (VALUES ('government'), ('education'), ('publishing'), ('docs'), ('commerce'), ('news'),
    ('webapp')) AS t(sector);
