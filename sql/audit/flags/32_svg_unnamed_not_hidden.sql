-- svg_unnamed_not_hidden: an svg with no title or aria-label that is not hidden (a capture without the accessibility tree; with it, image_no_accessible_name says this)
--   type: image
SELECT *
FROM audit_image_facts
WHERE exposed IS NULL AND tag = 'svg' AND coalesce(svg_title, '') = '' AND coalesce(aria_label, '') = ''
    AND NOT aria_hidden AND coalesce(role, '') <> 'presentation'
