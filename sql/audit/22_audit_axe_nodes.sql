-- audit_axe_runs: one row per inventoried view that axe-core checked: the engine, and whether it finished or capped its nodes
--   pos: the view's position
--   view_id: view id
--   product: product
--   engine: axe-core and its version
--   error: why axe-core did not finish on the view (NULL when it did)
--   nodes_total: nodes axe-core reported (violations and incomplete)
--   capped: whether more nodes were found than were kept
--   run_by: what chose the rules that ran: tag or rule
--   run_values: the tags or rule ids that ran
-- audit_axe_nodes: one row per node axe-core reported on a view (a violation, or an incomplete result a person decides), with its element fingerprint (computed once when the store is built)
--   pos: the view's position
--   view_id: view id
--   product: product
--   i: the node's index in the view's results
--   rule: axe-core rule id
--   outcome: violation or incomplete
--   impact: minor, moderate, serious or critical
--   tags: axe-core's tags for the rule (WCAG criteria as wcag111, levels, ACT, ...)
--   sc: the first WCAG success criterion among the tags (1.1.1); NULL for a best practice
--   help: the rule's help text
--   help_url: axe-core's page for the rule
--   target: the node's selectors as text (frames joined by " >>> ", shadow roots by " >> ")
--   html: the node's HTML snippet
--   summary: axe-core's failure summary
--   box: where the node is drawn, CSS pixels of the page (NULL when it could not be found again)
--   revealed: where a picture of its own shows it when the view's screenshot does not (shot: N of the view's reveals, box in that picture's pixels); NULL when none
--   fingerprint: the component's fingerprint: first 16 hex of sha256 of the snippet's shape, so that the copies of one component (every entry of a sidebar, every code token of a class, a card repeated per item, a header link on every page) read alike: the tags in order with their class, role and type values and the names of their other attributes, without text, other attribute values (ids, hrefs, titles) or digits (see axe_shape)
-- axe_shape: a snippet's component shape: lower case, text between tags dropped, attribute values dropped except
-- class, role and type (the component's kind), every run of digits read as 0, whitespace collapsed
CREATE OR REPLACE MACRO axe_shape(html) AS
    trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
        lower(html), '>[^<]*', '>', 'g'), '^[^<]*', ''),
        '\s(class|role|type)\s*=\s*"([^"]*)"', ' \1:\2:', 'g'),
        '\s*=\s*("[^"]*"|''[^'']*''|[^\s>]+)', '', 'g'),
        '[0-9]+', '0', 'g'), '\s+', ' ', 'g'));
CREATE OR REPLACE MACRO axe_sc(tags) AS
    (SELECT regexp_replace(t, '^wcag([0-9])([0-9])([0-9]+)$', '\1.\2.\3')
     FROM unnest(tags) AS x(t) WHERE regexp_full_match(t, 'wcag[0-9]{3,4}') LIMIT 1);
CREATE OR REPLACE MACRO axe_target(target) AS
    array_to_string(list_transform(CAST(json_extract(target, '$[*]') AS JSON[]),
        lambda part: CASE WHEN json_type(part) = 'ARRAY' THEN array_to_string(CAST(json_extract_string(part,
            '$[*]') AS VARCHAR[]), ' >> ')
                          ELSE json_extract_string(part, '$') END), ' >>> ');

CREATE OR REPLACE VIEW audit_axe_runs AS
SELECT v.pos, v.view_id, v.product, r.axe.engine AS engine, r.axe.error AS error, r.axe.nodes_total AS nodes_total,
    coalesce(r.axe.capped, false) AS capped, r.axe.options.type AS run_by, r.axe.options."values" AS run_values
FROM audit_views AS v JOIN raw_inventory AS r USING (source, line)
WHERE v.ok AND r.axe IS NOT NULL;

CREATE OR REPLACE TABLE audit_axe_nodes AS
WITH results AS (
    SELECT v.pos, v.view_id, v.product, generate_subscripts(r.axe.results, 1) AS ri, unnest(r.axe.results) AS res
    FROM audit_views AS v JOIN raw_inventory AS r USING (source, line)
    WHERE v.ok AND r.axe.results IS NOT NULL
),
nodes AS (
    SELECT pos, view_id, product, ri, res.rule AS rule, res.outcome AS outcome, res.tags AS tags, res.help AS help,
        res.help_url AS help_url, res.impact AS rule_impact, generate_subscripts(res.nodes, 1) AS ni,
            unnest(res.nodes) AS n
    FROM results
)
SELECT pos, view_id, product, row_number() OVER (PARTITION BY pos ORDER BY ri, ni) AS i, rule, outcome,
    coalesce(n.impact, rule_impact) AS impact, tags, axe_sc(tags) AS sc, help, help_url, axe_target(n.target) AS target,
    n.html AS html, n.summary AS summary, n.box AS box, n.revealed AS revealed,
    substr(sha256(axe_shape(coalesce(n.html, ''))), 1, 16) AS fingerprint
FROM nodes
ORDER BY pos, i;
