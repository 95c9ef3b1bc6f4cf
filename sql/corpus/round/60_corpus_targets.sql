-- corpus_targets: the acceptance targets for the goal N (count targets scale with k = N/250, halves rounded up; shares do not scale)
--   goal: the accepted-item goal N
--   per_category: accepted items needed in each category, max(4, round(30k))
--   per_subtype: accepted items needed in each sub-type, max(3, round(20k))
--   domains_per_subtype: distinct domains needed among each sub-type's accepted items, max(3, round(8k))
--   min_empty_alt_share: least share of accepted items whose gold alt is empty
--   min_dual_purpose_share: least share of accepted items that are dual-purpose
--   min_ambiguous_share: least share of accepted items that are ambiguous
--   max_domain_share: most share of accepted items any one domain may hold (the concentration limit)
--   min_non_blocking_share: least share of accepted items whose latest review is not blocking
--   quiet_rounds: how many of the latest rounds must report no new blocking findings
CREATE OR REPLACE VIEW corpus_targets AS
SELECT goal,
    greatest(4, (60 * goal + 250) // 500) AS per_category,
    greatest(3, (40 * goal + 250) // 500) AS per_subtype,
    greatest(3, (16 * goal + 250) // 500) AS domains_per_subtype,
    0.15 AS min_empty_alt_share, 0.10 AS min_dual_purpose_share, 0.20 AS min_ambiguous_share,
    0.05 AS max_domain_share, 0.95 AS min_non_blocking_share, 2 AS quiet_rounds
FROM jfi_run;
