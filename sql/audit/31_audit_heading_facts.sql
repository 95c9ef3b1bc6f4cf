-- audit_heading_facts: one row per captured heading, with its dedupe key and the facts its flags test
--   type: heading
--   sc: WCAG success criterion judged (2.4.6)
--   product: product
--   pos: the view's position
--   view_id: view id
--   i: the heading's index in the page
--   unit_key: dedupe key level|norm(text)|landmark
--   name: the heading text
--   detail: hN
--   context: the text that follows the heading
--   landmark: enclosing landmark
--   selector: CSS path
--   visible: whether it was rendered
--   href: none for a heading
--   level: heading level
--   name_source: where the name came from
--   prev_level: level of the nearest heading with a level before it in the page
--   same_in_page: headings in the page with the same level and normalised text
--   exposed: whether the browser exposes it to assistive technology (NULL when the capture has no accessibility tree)
--   ax_name: the accessible name the browser computed (NULL without the tree)
--   ax_name_source: where the browser took that name from
--   ax_role: the role the browser computed
CREATE OR REPLACE TABLE audit_heading_facts AS
SELECT 'heading' AS type, '2.4.6' AS sc, product, pos, view_id, i,
    coalesce(CAST(level AS VARCHAR), 'null') || '|' || norm_text(text) || '|' || coalesce(landmark, '') AS unit_key,
    coalesce(text, '') AS name, 'h' || coalesce(CAST(level AS VARCHAR), 'null') AS detail,
    coalesce(section_preview, '') AS context, landmark, selector, coalesce(visible, false) AS visible,
    CAST(NULL AS VARCHAR) AS href, level, name_source,
    last_value(nullif(level, 0) IGNORE NULLS) OVER (PARTITION BY pos ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_level,
    count(*) OVER (PARTITION BY pos, level, norm_text(text)) AS same_in_page, ax.exposed AS exposed, ax.name AS ax_name, ax.name_source AS ax_name_source, ax.role AS ax_role
FROM audit_headings;
