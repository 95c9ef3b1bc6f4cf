-- alt_duplicates_control_text: the image's alt repeats the text of the control it sits in
--   type: image
SELECT *
FROM audit_image_facts
WHERE in_control AND control_has_text AND norm_text(text_alt) <> '' AND (norm_text(control_name) = norm_text(text_alt)
    OR starts_with(norm_text(control_name), norm_text(text_alt) || ' ') OR ends_with(norm_text(control_name), ' '
    || norm_text(text_alt)))
