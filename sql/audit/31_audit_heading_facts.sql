-- audit_heading_facts: one row per captured heading, with its dedupe key and the facts its flags test
--   type: heading
--   sc: WCAG success criterion judged (2.4.6)
--   product: product
--   pos: the view's position
--   view_id: view id
--   i: the heading's index in the page
--   unit_key: dedupe key level|norm(name)|landmark
--   name: the heading's accessible name: the browser's when it exposes the heading, else the DOM approximation
--   detail: hN
--   context: the text that follows the heading
--   landmark: enclosing landmark
--   selector: CSS path
--   visible: whether it was rendered
--   href: none for a heading
--   level: heading level
--   name_source: where the name came from: the approximation's word (content, img-alt, ...) where the browser agrees with it, else the browser's source
--   prev_level: level of the nearest heading with a level before it in the page
--   same_in_page: headings in the page with the same level and normalised name
--   exposed: whether the browser exposes it to assistive technology (NULL when the capture has no accessibility tree)
--   dom_name: the name the DOM approximation gives (the name itself when the capture has no accessibility tree)
--   needs_human: whether the name is only the DOM approximation (no accessibility tree): a person must check it in a browser
--   frame: the CSS path of the iframe it sits in (NULL in the top document)
--   undrawn: whether it is not drawn at all (display:none, visibility:hidden, also through an ancestor)
--   ax_name: the accessible name the browser computed (NULL without the tree)
--   ax_name_source: where the browser took that name from
--   ax_role: the role the browser computed
CREATE OR REPLACE TABLE audit_heading_facts AS
WITH h AS (
    SELECT * REPLACE (CASE WHEN ax.exposed THEN coalesce(ax.name, '') ELSE coalesce(text, '') END AS text,
                      CASE WHEN ax.exposed AND ax.name <> coalesce(text, '') THEN coalesce(ax.name_source, 'none')
                           ELSE name_source END AS name_source),
        coalesce(text, '') AS dom_name
    FROM audit_headings
)
SELECT 'heading' AS type, '2.4.6' AS sc, product, pos, view_id, i,
    coalesce(CAST(level AS VARCHAR), 'null') || '|' || norm_text(text) || '|' || coalesce(landmark, '') AS unit_key,
    text AS name, 'h' || coalesce(CAST(level AS VARCHAR), 'null') AS detail,
    coalesce(section_preview, '') AS context, landmark, selector, coalesce(visible, false) AS visible,
    CAST(NULL AS VARCHAR) AS href, level, name_source,
    last_value(nullif(level, 0) IGNORE NULLS) OVER (PARTITION BY pos ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING
        AND 1 PRECEDING) AS prev_level,
    count(*) OVER (PARTITION BY pos, level, norm_text(text)) AS same_in_page, ax.exposed AS exposed, ax.name AS ax_name,
        ax.name_source AS ax_name_source, ax.role AS ax_role,
    dom_name, ax.exposed IS NULL AS needs_human, frame, coalesce(undrawn, false) AS undrawn
FROM h;
