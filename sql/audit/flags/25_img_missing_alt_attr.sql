-- img_missing_alt_attr: an img without an alt attribute (a capture without the accessibility tree; with it, image_no_accessible_name says whether the image has a name at all)
--   type: image
--   act_rule: 23a2a8
--   fact_class: missing alt attribute
SELECT *
FROM audit_image_facts
WHERE exposed IS NULL AND tag = 'img' AND NOT alt_present
