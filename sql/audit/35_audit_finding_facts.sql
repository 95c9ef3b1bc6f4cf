-- audit_axe_unreported: jfi's occurrences whose objective flag axe-core did not report, on a view where axe-core ran (to the end) with a rule for the same failure
--   type: unit type
--   product: product
--   pos: the view's position
--   i: element index
--   unit_key: dedupe key of the unit the occurrence belongs to
--   exposed: NULL (the flag axe-core did not report fired on an element a person meets)
-- audit_axe_rule_flags: which of jfi's objective flags says what an axe-core rule says (the same failure, found by each tool on its own): axe's rule, the tag axe runs it under, the unit type and jfi's flag
--   rule: axe-core rule id
--   tag: the tag under which axe-core runs the rule (wcag2a, or best-practice)
--   type: jfi unit type
--   flag: jfi's flag for the same failure
-- audit_axe_matches: each axe-core node of a rule jfi also checks, beside the element jfi captured at the same place on the same view (each box's centre inside the other), with whether jfi's flag fired there
--   pos: the view's position
--   node_i: the axe node's index in the view
--   type: jfi unit type
--   i: jfi's element index
--   unit_key: jfi's unit key of that element
--   flag: jfi's flag for the rule
--   jfi_flagged: whether jfi's flag fired on that element
-- audit_finding_facts: one row per axe-core node, as an occurrence of a finding unit: one unit per product, rule and element fingerprint (a component repeated on every page is one row)
--   type: finding
--   sc: the WCAG success criterion among the rule's tags ('' for a best practice)
--   product: product
--   pos: the view's position
--   view_id: view id
--   i: the node's index in the view
--   unit_key: rule|fingerprint
--   name: the rule's help text
--   detail: outcome; impact; rule id
--   context: axe-core's failure summary
--   landmark: NULL
--   selector: axe-core's target
--   visible: whether the node has a drawn box
--   href: axe-core's help URL for the rule
--   html: the node's HTML snippet
--   rule: axe-core's rule id
--   outcome: violation or incomplete
--   impact: axe-core's impact for the node
--   agreement: agrees (jfi's own flag fired on the same element), disagrees (jfi captured it and its flag did not fire), or NULL (no rule of jfi's, or no element of jfi's there)
--   exposed: NULL (axe-core's node, not an element of jfi's capture)
CREATE OR REPLACE TABLE audit_axe_rule_flags AS
SELECT * FROM (VALUES
    ('image-alt', 'wcag2a', 'image', 'image_no_accessible_name'), ('input-image-alt', 'wcag2a', 'image',
        'image_no_accessible_name'),
    ('role-img-alt', 'wcag2a', 'image', 'image_no_accessible_name'), ('svg-img-alt', 'wcag2a', 'image',
        'image_no_accessible_name'),
    ('area-alt', 'wcag2a', 'image', 'image_no_accessible_name'), ('object-alt', 'wcag2a', 'image',
        'image_no_accessible_name'),
    ('link-name', 'wcag2a', 'link', 'link_no_accessible_name'),
    ('label', 'wcag2a', 'field', 'field_no_accessible_name'), ('select-name', 'wcag2a', 'field',
        'field_no_accessible_name'),
    ('empty-heading', 'best-practice', 'heading', 'heading_no_accessible_name'),
    ('document-title', 'wcag2a', 'title', 'title_empty')
) AS t(rule, tag, type, flag);

CREATE OR REPLACE VIEW audit_axe_matches AS
WITH boxed AS (
    SELECT 'heading' AS type, pos, i, box FROM audit_headings
    UNION ALL SELECT 'link', pos, i, box FROM audit_links
    UNION ALL SELECT 'image', pos, i, box FROM audit_images
    UNION ALL SELECT 'field', pos, i, box FROM audit_fields
),
occ AS (
    SELECT type, pos, i, unit_key FROM audit_title_facts
    UNION ALL SELECT type, pos, i, unit_key FROM audit_heading_facts
    UNION ALL SELECT type, pos, i, unit_key FROM audit_link_facts
    UNION ALL SELECT type, pos, i, unit_key FROM audit_image_facts
    UNION ALL SELECT type, pos, i, unit_key FROM audit_field_facts
),
pairs AS (
    SELECT n.pos, n.i AS node_i, m.type, m.flag, e.i
    FROM audit_axe_nodes AS n JOIN audit_axe_rule_flags AS m USING (rule)
    JOIN boxed AS e ON e.pos = n.pos AND e.type = m.type
    WHERE m.type <> 'title' AND n.box IS NOT NULL AND e.box IS NOT NULL AND e.box.width > 0 AND n.box.width > 0
      AND e.box.x + e.box.width / 2 BETWEEN n.box.x AND n.box.x + n.box.width
      AND e.box.y + e.box.height / 2 BETWEEN n.box.y AND n.box.y + n.box.height
      AND n.box.x + n.box.width / 2 BETWEEN e.box.x AND e.box.x + e.box.width
      AND n.box.y + n.box.height / 2 BETWEEN e.box.y AND e.box.y + e.box.height
    UNION ALL  -- a page's title is the page's: the document-title node is the title's occurrence
    SELECT n.pos, n.i, m.type, m.flag, t.i
    FROM audit_axe_nodes AS n JOIN audit_axe_rule_flags AS m USING (rule) JOIN occ AS t ON t.pos = n.pos
        AND t.type = 'title'
    WHERE m.type = 'title'
)
SELECT p.pos, p.node_i, p.type, p.i, o.unit_key, p.flag,
    EXISTS (SELECT 1 FROM audit_flags AS f WHERE f.type = p.type AND f.pos = p.pos AND f.i = p.i
        AND f.flag = p.flag) AS jfi_flagged
FROM pairs AS p JOIN occ AS o ON o.type = p.type AND o.pos = p.pos AND o.i = p.i;

CREATE OR REPLACE TABLE audit_finding_facts AS
SELECT 'finding' AS type, coalesce(n.sc, '') AS sc, n.product, n.pos, n.view_id, n.i, n.rule || '|'
    || n.fingerprint AS unit_key,
    n.help AS name, n.outcome || '; ' || coalesce(n.impact, 'no impact given') || '; ' || n.rule AS detail,
    coalesce(n.summary, '') AS context, CAST(NULL AS VARCHAR) AS landmark, n.target AS selector,
    coalesce(n.box.width > 0 AND n.box.height > 0, false) AS visible, n.help_url AS href, n.html, n.rule, n.outcome,
        n.impact,
    (SELECT CASE WHEN count(*) = 0 THEN NULL WHEN bool_or(m.jfi_flagged) THEN 'agrees' ELSE 'disagrees' END
     FROM audit_axe_matches AS m WHERE m.pos = n.pos AND m.node_i = n.i) AS agreement,
    CAST(NULL AS BOOLEAN) AS exposed
FROM audit_axe_nodes AS n;

CREATE OR REPLACE TABLE audit_axe_unreported AS
SELECT DISTINCT f.type, f.product, f.pos, f.i, f.unit_key, CAST(NULL AS BOOLEAN) AS exposed
FROM audit_flags AS f JOIN audit_axe_rule_flags AS m ON m.type = f.type AND m.flag = f.flag
JOIN audit_axe_runs AS r ON r.pos = f.pos AND r.error IS NULL
    AND ((r.run_by = 'tag' AND list_contains(r.run_values, m.tag)) OR (r.run_by = 'rule' AND list_contains(r.run_values,
        m.rule)))
WHERE NOT EXISTS (SELECT 1 FROM audit_axe_matches AS x WHERE x.pos = f.pos AND x.type = f.type AND x.i = f.i);
