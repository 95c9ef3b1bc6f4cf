-- corpus_concentration: one row per domain: its items (every item counts, as upstream's validator counts them), its ready items, its share of the goal and whether it is over the domain cap
--   domain: the domain
--   items: items from it, whatever their status
--   ready: its ready items
--   share: items as a share of the goal
--   over_limit: whether it holds more items than the domain cap
CREATE OR REPLACE VIEW corpus_concentration AS
SELECT i.domain, count(*) AS items, count(*) FILTER (WHERE i.status = 'ready') AS ready,
    count(*) / any_value(g.goal) AS share, count(*) > any_value(g.domain_max) AS over_limit
FROM corpus_items AS i, corpus_targets AS g
WHERE i.domain IS NOT NULL
GROUP BY i.domain
ORDER BY items DESC, ready DESC, i.domain;
