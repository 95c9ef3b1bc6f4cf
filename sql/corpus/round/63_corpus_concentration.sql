-- corpus_concentration: one row per domain: its items, its accepted items and their share of all accepted items
--   domain: the domain
--   items: items from the domain, any status
--   accepted: accepted items from the domain
--   share: accepted / all accepted items (NULL while nothing is accepted)
--   limit_share: the concentration limit
--   over_limit: whether the domain's share is above the limit
CREATE OR REPLACE VIEW corpus_concentration AS
WITH per_domain AS (
    SELECT domain, count(*) AS items, count(*) FILTER (WHERE status = 'accepted') AS accepted
    FROM corpus_items WHERE domain IS NOT NULL GROUP BY domain
),
total AS (SELECT sum(accepted) AS accepted_total FROM per_domain)
SELECT p.domain, p.items, p.accepted,
    CASE WHEN t.accepted_total > 0 THEN p.accepted / t.accepted_total END AS share,
    g.max_domain_share AS limit_share,
    coalesce(t.accepted_total > 0 AND p.accepted / t.accepted_total > g.max_domain_share, false) AS over_limit
FROM per_domain AS p, total AS t, corpus_targets AS g
ORDER BY p.accepted DESC, p.items DESC, p.domain;
