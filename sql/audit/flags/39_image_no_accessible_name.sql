-- image_no_accessible_name: the browser exposes this image (img, svg, role=img, image button, area, object or canvas) with no accessible name: a screen reader announces an image and nothing else
--   type: image
--   act_rule: 23a2a8
--   act_check: true
--   fact_class: no accessible name
SELECT *
FROM audit_image_facts
WHERE exposed AND ax_name = ''
