-- audit_field_facts: one row per captured form field, with its dedupe key and the facts its flags test
--   type: field
--   sc: WCAG success criterion judged (2.4.6)
--   product: product
--   pos: the view's position
--   view_id: view id
--   i: the field's index in the page
--   unit_key: dedupe key type|norm(label)|label source|norm(placeholder)|name or id (the DOM approximation's label and source), then |the browser's name where it differs from the approximation
--   name: the label, or (no label; source)
--   detail: type, label source, placeholder, required, legend and description, as text
--   context: the fieldset legend or the description
--   landmark: enclosing landmark
--   selector: CSS path
--   visible: whether it was rendered
--   href: none for a field
--   field_type: input type, select or textarea
--   label: the label: the browser's name when it exposes the field and the name is not only a placeholder or title, else the DOM approximation's label
--   label_source: where the label came from (placeholder-only, title-only and none mean no label)
--   placeholder: placeholder attribute
--   required: whether it is required
--   describedby_text: text of the aria-describedby targets
--   exposed: whether the browser exposes it to assistive technology (NULL when the capture has no accessibility tree)
--   dom_name: the name the DOM approximation gives (the name itself when the capture has no accessibility tree)
--   needs_human: whether the name is only the DOM approximation (no accessibility tree): a person must check it in a browser
--   frame: the CSS path of the iframe it sits in (NULL in the top document)
--   undrawn: whether it is not drawn at all (display:none, visibility:hidden, also through an ancestor)
--   name_source: where the name came from: the label source where the browser agrees with the approximation, else the browser's source
--   ax_name: the accessible name the browser computed (NULL without the tree)
--   ax_name_source: where the browser took that name from
--   ax_role: the role the browser computed
CREATE OR REPLACE TABLE audit_field_facts AS
WITH f AS (
    -- the key keeps the DOM's attributes (stable whichever way the name was found); label and source are the browser's
    SELECT *, coalesce(type, '') || '|' || norm_text(label) || '|' || coalesce(label_source, '') || '|'
        || norm_text(placeholder)
            || '|' || coalesce(nullif(name_attr, ''), nullif(id, ''), '') AS unit_key,
        coalesce(nullif(label, ''), '(no label; ' || label_source || ')') AS dom_name,
        CASE WHEN NOT ax.exposed OR ax.exposed IS NULL THEN label_source
             WHEN coalesce(ax.name, '') = '' THEN 'none'
             WHEN ax.name = label
                 THEN label_source  -- the browser agrees: the approximation's finer word (label[for], ...)
             WHEN ax.name_source = 'placeholder' THEN 'placeholder-only'
             WHEN ax.name_source = 'title' THEN 'title-only'
             ELSE coalesce(ax.name_source, 'none') END AS shown_source
    FROM audit_fields
),
g AS (
    SELECT * REPLACE (CASE WHEN ax.exposed AND shown_source NOT IN ('none', 'placeholder-only', 'title-only')
        THEN ax.name
                           WHEN ax.exposed THEN '' ELSE coalesce(label, '') END AS label, shown_source AS label_source)
    FROM f
)
SELECT 'field' AS type, '2.4.6' AS sc, product, pos, view_id, i,
    unit_key || CASE WHEN ax.exposed AND coalesce(nullif(ax.name, ''), '(no label; none)') <> dom_name
                     THEN '|' || coalesce(nullif(ax.name, ''), '(no label; none)') ELSE '' END AS unit_key,
    CASE WHEN ax.exposed THEN coalesce(nullif(ax.name, ''), '(no label; none)') ELSE dom_name END AS name,
    type || '; label from ' || label_source
        || CASE WHEN coalesce(placeholder, '') <> '' THEN '; placeholder "' || placeholder || '"' ELSE '' END
        || CASE WHEN required THEN '; required' ELSE '' END
        || CASE WHEN coalesce(fieldset_legend, '') <> '' THEN '; legend "' || fieldset_legend || '"' ELSE '' END
        || CASE WHEN coalesce(describedby_text, '') <> '' THEN '; describedby "' || describedby_text || '"'
            ELSE '' END AS detail,
    coalesce(nullif(fieldset_legend, ''), nullif(describedby_text, ''), '') AS context, landmark, selector,
    coalesce(visible, false) AS visible, CAST(NULL AS VARCHAR) AS href,
    type AS field_type, coalesce(label, '') AS label, label_source, placeholder, coalesce(required, false) AS required,
    describedby_text, ax.exposed AS exposed, ax.name AS ax_name, ax.name_source AS ax_name_source, ax.role AS ax_role,
    dom_name, ax.exposed IS NULL AS needs_human, frame, coalesce(undrawn, false) AS undrawn,
    CASE WHEN ax.exposed AND ax.name <> dom_name THEN coalesce(ax.name_source, 'none')
        ELSE label_source END AS name_source
FROM g;
