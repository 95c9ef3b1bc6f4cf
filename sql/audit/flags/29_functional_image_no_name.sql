-- functional_image_no_name: the only content of a link or button is an image, and neither names it (a capture without the accessibility tree; with it, the link's or image's no_accessible_name flag says this)
--   type: image
--   act_rule: 23a2a8
SELECT *
FROM audit_image_facts
WHERE exposed IS NULL AND functional AND (alt_empty OR (coalesce(alt, '') = '' AND coalesce(aria_label, '') = ''
    AND coalesce(aria_labelledby_text, '') = '')) AND coalesce(control_name, '') = ''
