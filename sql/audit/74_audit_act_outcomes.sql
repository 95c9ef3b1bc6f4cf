-- audit_act_outcomes: per view and objective check, the outcome an ACT implementation report states: failed where the flag fires on an element of the view, passed where the view has applicable elements (rows of that type: exposed, drawn or not; a title for every HTML page) and it fires on none, inapplicable where the view has none
--   view_id: view id
--   rule: the flag id of the check
--   act_rule: the ACT rule id
--   outcome: failed, passed or inapplicable
--   selector: the CSS path of the first element it failed on (NULL otherwise)
CREATE OR REPLACE VIEW audit_act_outcomes AS
WITH applicable AS (  -- the occurrences on each view that are rows (a unit a person meets)
    SELECT o.view_id, o.pos, o.i, o.type, o.selector
    FROM audit_occurrences AS o SEMI JOIN audit_units AS u ON u.unit_key = o.unit_key AND u.type = o.type
        AND u.product = o.product
),
fired AS (
    SELECT a.view_id, c.rule, min(a.selector) AS selector
    FROM audit_flags AS f JOIN audit_act_checks AS c ON c.rule = f.rule
    JOIN applicable AS a ON a.pos = f.pos AND a.i = f.i AND a.type = f.type
    GROUP BY ALL
)
SELECT v.view_id, c.rule, c.act_rule,
    CASE WHEN f.rule IS NOT NULL THEN 'failed'
         WHEN EXISTS (SELECT 1 FROM applicable AS a WHERE a.view_id = v.view_id AND a.type = c.type) THEN 'passed'
         ELSE 'inapplicable' END AS outcome,
    f.selector
FROM (SELECT DISTINCT view_id FROM audit_views WHERE ok) AS v
CROSS JOIN audit_act_checks AS c
LEFT JOIN fired AS f ON f.view_id = v.view_id AND f.rule = c.rule
ORDER BY v.view_id, c.rule;
