-- tiny_image_with_alt: an image of at most 20x20 pixels carries an alt
--   type: image
--   informational: true
SELECT *
FROM audit_image_facts
WHERE coalesce(width, 0) <> 0 AND width <= 20 AND height <= 20 AND coalesce(alt, '') <> ''
