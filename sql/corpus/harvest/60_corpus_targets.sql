-- corpus_targets: the harvest coverage bars for the goal N: each sector 8 to 25 percent of N, each sub-type at least 5 percent, at most 5 percent from one domain, at most 2 items from one page (fractions rounded up)
--   goal: the goal N
--   sector_min: fewest items a sector should hold
--   sector_max: most items a sector should hold
--   subtype_min: fewest items a sub-type should hold
--   domain_max: most items from one domain
--   per_page: most items from one page
CREATE OR REPLACE VIEW corpus_targets AS
SELECT goal, (goal * 8 + 99) // 100 AS sector_min, (goal * 25 + 99) // 100 AS sector_max,
    (goal * 5 + 99) // 100 AS subtype_min, (goal * 5 + 99) // 100 AS domain_max, 2 AS per_page
FROM jfi_run;
