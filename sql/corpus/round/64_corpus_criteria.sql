-- corpus_criteria: one row per acceptance criterion: what the corpus has, what the goal needs, and whether it is met
--   ord: display order
--   criterion: the criterion in words
--   actual: the corpus's value (a count, or a share between 0 and 1)
--   target: the value needed
--   unit: count or share
--   comparison: >= when actual must reach target, <= when it must not exceed it
--   met: whether the criterion holds
CREATE OR REPLACE VIEW corpus_criteria AS
WITH acc AS (SELECT * FROM corpus_items WHERE status = 'accepted'),
n AS (SELECT count(*) AS accepted FROM acc),
g AS (SELECT * FROM corpus_targets),
latest AS (SELECT item_id, blocking FROM corpus_reviews WHERE is_latest),
rows AS (
    SELECT 1 AS ord, 'accepted items' AS criterion, CAST(n.accepted AS DOUBLE) AS actual,
        CAST(g.goal AS DOUBLE) AS target,
        'count' AS unit, '>=' AS comparison
    FROM n, g
    UNION ALL
    SELECT 10 + s.category, 'category ' || s.category || ' accepted',
        (SELECT count(*) FROM acc WHERE acc.category = s.category), g.per_category, 'count', '>='
    FROM (SELECT DISTINCT category FROM corpus_subtypes) AS s, g
    UNION ALL
    SELECT 20 + row_number() OVER (ORDER BY s.category, s.subtype), 'sub-type ' || s.subtype || ' accepted',
        (SELECT count(*) FROM acc WHERE acc.subtype = s.subtype), g.per_subtype, 'count', '>='
    FROM corpus_subtypes AS s, g
    UNION ALL
    SELECT 30 + row_number() OVER (ORDER BY s.category, s.subtype), 'sub-type ' || s.subtype || ' distinct domains',
        (SELECT count(DISTINCT domain) FROM acc WHERE acc.subtype = s.subtype), g.domains_per_subtype, 'count', '>='
    FROM corpus_subtypes AS s, g
    UNION ALL
    SELECT 41, 'empty gold alt share', (SELECT count(*) FILTER (WHERE gold_alt = '') / nullif(count(*), 0) FROM acc),
        g.min_empty_alt_share, 'share', '>=' FROM g
    UNION ALL
    SELECT 42, 'dual-purpose share', (SELECT count(*) FILTER (WHERE dual_purpose) / nullif(count(*), 0) FROM acc),
        g.min_dual_purpose_share, 'share', '>=' FROM g
    UNION ALL
    SELECT 43, 'ambiguous share', (SELECT count(*) FILTER (WHERE difficulty = 'ambiguous') / nullif(count(*), 0)
        FROM acc),
        g.min_ambiguous_share, 'share', '>=' FROM g
    UNION ALL
    SELECT 44, 'largest domain share (concentration limit)', (SELECT max(share) FROM corpus_concentration),
        g.max_domain_share, 'share', '<=' FROM g
    UNION ALL
    SELECT 45, 'latest review not blocking share',
        CASE WHEN EXISTS (SELECT 1 FROM corpus_rounds WHERE has_review) THEN
            (SELECT count(*) FILTER (WHERE l.blocking = false) / nullif(count(*), 0)
             FROM acc LEFT JOIN latest AS l ON l.item_id = acc.id) END,
        g.min_non_blocking_share, 'share', '>=' FROM g
    UNION ALL
    SELECT 46, 'latest rounds quiet (new-blocking-findings=no)',
        (SELECT count(*) FILTER (WHERE quiet) FROM corpus_rounds WHERE recency <= g.quiet_rounds),
        g.quiet_rounds, 'count', '>=' FROM g
    UNION ALL
    SELECT 47, 'accepted items not settled or not copied',
        (SELECT count(DISTINCT id) FROM (
            SELECT record_id AS id FROM item_rule_violations
            WHERE code IN ('accepted_leaky', 'accepted_without_two_passes', 'accepted_disagreeing_passes')
            UNION ALL  -- an accepted item with an image URL and no local copy on disk
            SELECT i.id FROM acc AS i LEFT JOIN image_copies AS c ON c.path = i.image_file
            WHERE i.image_url IS NOT NULL AND (i.image_file IS NULL OR NOT coalesce(c.present, true)))),
        0, 'count', '<='
)
SELECT ord, criterion, actual, target, unit, comparison,
    coalesce(CASE comparison WHEN '>=' THEN actual >= target ELSE actual <= target END, false) AS met
FROM rows
ORDER BY ord;
