-- audit_field_facts: one row per captured form field, with its dedupe key and the facts its flags test
--   type: field
--   sc: WCAG success criterion judged (2.4.6)
--   product: product
--   pos: the view's position
--   view_id: view id
--   i: the field's index in the page
--   unit_key: dedupe key type|norm(label)|label source|norm(placeholder)|name or id
--   name: the label, or (no label; source)
--   detail: type, label source, placeholder, required, legend and description, as text
--   context: the fieldset legend or the description
--   landmark: enclosing landmark
--   selector: CSS path
--   visible: whether it was rendered
--   href: none for a field
--   field_type: input type, select or textarea
--   label: computed label
--   label_source: where the label came from
--   placeholder: placeholder attribute
--   required: whether it is required
--   describedby_text: text of the aria-describedby targets
--   exposed: whether the browser exposes it to assistive technology (NULL when the capture has no accessibility tree)
--   ax_name: the accessible name the browser computed (NULL without the tree)
--   ax_name_source: where the browser took that name from
--   ax_role: the role the browser computed
CREATE OR REPLACE TABLE audit_field_facts AS
SELECT 'field' AS type, '2.4.6' AS sc, product, pos, view_id, i,
    coalesce(type, '') || '|' || norm_text(label) || '|' || coalesce(label_source, '') || '|' || norm_text(placeholder) || '|'
        || coalesce(nullif(name_attr, ''), nullif(id, ''), '') AS unit_key,
    coalesce(nullif(label, ''), '(no label; ' || label_source || ')') AS name,
    type || '; label from ' || label_source
        || CASE WHEN coalesce(placeholder, '') <> '' THEN '; placeholder "' || placeholder || '"' ELSE '' END
        || CASE WHEN required THEN '; required' ELSE '' END
        || CASE WHEN coalesce(fieldset_legend, '') <> '' THEN '; legend "' || fieldset_legend || '"' ELSE '' END
        || CASE WHEN coalesce(describedby_text, '') <> '' THEN '; describedby "' || describedby_text || '"' ELSE '' END AS detail,
    coalesce(nullif(fieldset_legend, ''), nullif(describedby_text, ''), '') AS context, landmark, selector,
    coalesce(visible, false) AS visible, CAST(NULL AS VARCHAR) AS href,
    type AS field_type, coalesce(label, '') AS label, label_source, placeholder, coalesce(required, false) AS required,
    describedby_text, ax.exposed AS exposed, ax.name AS ax_name, ax.name_source AS ax_name_source, ax.role AS ax_role
FROM audit_fields;
