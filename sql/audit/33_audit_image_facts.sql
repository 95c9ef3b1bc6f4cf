-- audit_image_facts: one row per captured image an image question applies to (img, input type=image, area, object, canvas, and elements with an img or graphics role; not an svg without such a role, nor anything inside an element whose children are presentational such as a button, nor a presentational object or one showing its fallback: audit_images.not_applicable says why), with its dedupe key and the facts its flags test
--   type: image
--   sc: WCAG success criterion judged (1.1.1)
--   product: product
--   pos: the view's position
--   view_id: view id
--   i: the image's index in the page
--   unit_key: dedupe key src basename|alt (raw, or ∅ when absent)|aria-label|control name|landmark, then |the browser's name where it differs from the approximation
--   name: the browser's name when it exposes the image with one; else the alt, or what names the image when there is no alt attribute
--   detail: tag, size, role kind, control, caption, aria-hidden and source, as text
--   context: the enclosing text block
--   landmark: enclosing landmark
--   selector: CSS path
--   visible: whether it was rendered
--   href: src as written
--   tag: element
--   alt: alt attribute (NULL when absent)
--   alt_present: whether the alt attribute exists
--   alt_empty: whether alt is the empty string
--   role: role attribute
--   aria_label: aria-label
--   aria_labelledby_text: text of the aria-labelledby targets
--   aria_hidden: whether it or an ancestor is aria-hidden
--   svg_title: an svg's title element
--   src_basename: file name of src
--   figcaption: caption of its figure
--   width: rendered width
--   height: rendered height
--   in_control: whether it sits in a link or button
--   control_name: the name of that control
--   control_has_text: whether that control has text of its own
--   functional: whether it is the only content of its control
--   role_kind: functional, decorative-declared or informative?
--   exposed: whether the browser exposes it to assistive technology (NULL when the capture has no accessibility tree)
--   dom_name: the name the DOM approximation gives (the name itself when the capture has no accessibility tree)
--   needs_human: whether the name is only the DOM approximation (no accessibility tree): a person must check it in a browser
--   frame: the CSS path of the iframe it sits in (NULL in the top document)
--   undrawn: whether it is not drawn at all (display:none, visibility:hidden, also through an ancestor)
--   text_alt: the text alternative the judgment flags read: the browser's name when it exposes the image, else the alt
--   name_source: where the name came from: the attribute the approximation read where the browser agrees with it, else the browser's source
--   ax_name: the accessible name the browser computed (NULL without the tree)
--   ax_name_source: where the browser took that name from
--   ax_role: the role the browser computed
CREATE OR REPLACE TABLE audit_image_facts AS
WITH m AS (
    SELECT *, in_control IS NOT NULL AS has_control,
        in_control IS NOT NULL AND NOT coalesce(in_control.control_has_text, false) AS functional,
        CASE WHEN alt IS NULL THEN coalesce(nullif(aria_label, ''), nullif(svg_title, ''), nullif(aria_labelledby_text,
            ''), '(no alt attribute)')
               WHEN alt = '' THEN '(alt="")' ELSE alt END AS dom_name
    FROM audit_images
    WHERE not_applicable IS NULL
),
-- the name the browser exposes, less a default no author gave: an input type=image with no alt, aria-label,
-- aria-labelledby or title is exposed as "Submit", which names nothing
authored AS (
    SELECT * REPLACE (CASE WHEN tag = 'input' AND coalesce(alt, '') = '' AND coalesce(aria_label, '') = ''
                            AND coalesce(aria_labelledby_text, '') = '' AND coalesce(title, '') = ''
                           THEN struct_pack(name := '', name_source := 'default', role := ax.role,
                               exposed := ax.exposed)
                           ELSE ax END AS ax)
    FROM m
)
SELECT 'image' AS type, '1.1.1' AS sc, product, pos, view_id, i,
    coalesce(src_basename, '') || '|' || coalesce(alt, '∅') || '|' || coalesce(aria_label, '') || '|'
        || coalesce(in_control.name, '') || '|' || coalesce(landmark, '')
        || CASE WHEN ax.exposed AND ax.name <> '' AND ax.name <> dom_name THEN '|' || ax.name ELSE '' END AS unit_key,
    CASE WHEN ax.exposed AND ax.name <> '' THEN ax.name ELSE dom_name END AS name,
    tag || ' ' || coalesce(CAST(width AS VARCHAR), 'null') || 'x' || coalesce(CAST(height AS VARCHAR), 'null')
        || '; role:'
        || CASE WHEN functional THEN 'functional'
                WHEN coalesce(aria_hidden, false) OR coalesce(alt_empty, false) OR role IN ('presentation', 'none')
                    THEN 'decorative-declared'
                ELSE 'informative?' END
        || CASE WHEN has_control THEN '; in ' || in_control.tag || ' "' || coalesce(in_control.name, '') || '"'
            ELSE '' END
        || CASE WHEN coalesce(figcaption, '') <> '' THEN '; figcaption "' || figcaption || '"' ELSE '' END
        || CASE WHEN aria_hidden THEN '; aria-hidden' ELSE '' END
        || '; src ' || coalesce(nullif(src_basename, ''), src, '') AS detail,
    coalesce(adjacent_text, '') AS context, landmark, selector, coalesce(visible, false) AS visible, src AS href,
    tag, alt, coalesce(alt_present, false) AS alt_present, coalesce(alt_empty, false) AS alt_empty, role, aria_label,
    aria_labelledby_text, coalesce(aria_hidden, false) AS aria_hidden, svg_title, coalesce(src_basename,
        '') AS src_basename,
    figcaption, width, height, has_control AS in_control, in_control.name AS control_name,
    coalesce(in_control.control_has_text, false) AS control_has_text, functional,
    CASE WHEN functional THEN 'functional'
         WHEN coalesce(aria_hidden, false) OR coalesce(alt_empty, false) OR role IN ('presentation', 'none')
             THEN 'decorative-declared'
         ELSE 'informative?' END AS role_kind, ax.exposed AS exposed, ax.name AS ax_name,
             ax.name_source AS ax_name_source, ax.role AS ax_role,
    dom_name, ax.exposed IS NULL AS needs_human, frame, coalesce(undrawn, false) AS undrawn,
    CASE WHEN ax.exposed THEN ax.name ELSE alt END AS text_alt,
    CASE WHEN ax.exposed AND ax.name <> '' AND ax.name <> dom_name THEN ax.name_source
         WHEN alt IS NOT NULL THEN 'alt' WHEN coalesce(aria_label, '') <> '' THEN 'aria-label'
         WHEN coalesce(svg_title, '') <> '' THEN 'title' WHEN coalesce(aria_labelledby_text, '') <> ''
             THEN 'aria-labelledby'
         ELSE 'none' END AS name_source
FROM authored;
