-- audit_flags: one row per flag that fired on an occurrence: one branch per rule of audit_flag_rules (same ord and rule id), its condition plain SQL over its type's facts view; a flag that is not informational never fires on an element the browser does not expose (exposed IS NOT FALSE)
--   type: unit type
--   product: product
--   pos: position of the view
--   i: element index in the page
--   unit_key: dedupe key of the unit the occurrence belongs to
--   flag: the flag's name
--   ord: the rule's order
--   rule: the rule's id
CREATE OR REPLACE TABLE audit_flags AS
-- 1 title_empty: the page has no title
SELECT type, product, pos, i, unit_key, 'title_empty' AS flag, 1 AS ord, 'title_empty' AS rule
FROM audit_title_facts
WHERE trim(name) = ''
UNION ALL
-- 2 title_shared_by_N_views: N views of the product share this title
SELECT type, product, pos, i, unit_key, 'title_shared_by_' || title_views || '_views' AS flag, 2 AS ord, 'title_shared_by_N_views' AS rule
FROM audit_title_facts
WHERE title_views > 1
UNION ALL
-- 3 title_shares_no_word_with_h1: no word of more than three letters in the h1 appears in the title
SELECT type, product, pos, i, unit_key, 'title_shares_no_word_with_h1' AS flag, 3 AS ord, 'title_shares_no_word_with_h1' AS rule
FROM audit_title_facts
WHERE len(h1s) > 0 AND NOT coalesce(list_bool_or(list_transform(h1_words, lambda w: contains(norm_text(name), w))), false)
UNION ALL
-- 4 no_h1: the page has no h1
SELECT type, product, pos, i, unit_key, 'no_h1' AS flag, 4 AS ord, 'no_h1' AS rule
FROM audit_title_facts
WHERE h1_count = 0
UNION ALL
-- 5 h1_count_N: the page has N h1 elements
SELECT type, product, pos, i, unit_key, 'h1_count_' || h1_count AS flag, 5 AS ord, 'h1_count_N' AS rule
FROM audit_title_facts
WHERE h1_count > 1
UNION ALL
-- 6 empty_h1: an h1 has no text
SELECT type, product, pos, i, unit_key, 'empty_h1' AS flag, 6 AS ord, 'empty_h1' AS rule
FROM audit_title_facts
WHERE has_empty_h1
UNION ALL
-- 7 title_over_120: the title is longer than 120 characters
SELECT type, product, pos, i, unit_key, 'title_over_120' AS flag, 7 AS ord, 'title_over_120' AS rule
FROM audit_title_facts
WHERE length(name) > 120
UNION ALL
-- 8 heading_empty: the heading has no text (a capture without the accessibility tree; with it, heading_no_accessible_name says this)
SELECT type, product, pos, i, unit_key, 'heading_empty' AS flag, 8 AS ord, 'heading_empty' AS rule
FROM audit_heading_facts
WHERE (exposed IS NULL AND name = '') AND exposed IS NOT FALSE
UNION ALL
-- 9 heading_generic: the heading is a generic word (overview, details, more, ...)
SELECT type, product, pos, i, unit_key, 'heading_generic' AS flag, 9 AS ord, 'heading_generic' AS rule
FROM audit_heading_facts
WHERE (matches_i(name, '^(overview|details|detail|more|information|info|section|untitled|content|title|heading|description|summary|misc|other|general|notes?)$')) AND exposed IS NOT FALSE
UNION ALL
-- 10 heading_numeric_only: the heading is only digits and punctuation
SELECT type, product, pos, i, unit_key, 'heading_numeric_only' AS flag, 10 AS ord, 'heading_numeric_only' AS rule
FROM audit_heading_facts
WHERE (name <> '' AND regexp_matches(name, '^[0-9.,%\s-]+$')) AND exposed IS NOT FALSE
UNION ALL
-- 11 heading_over_120: the heading is longer than 120 characters
SELECT type, product, pos, i, unit_key, 'heading_over_120' AS flag, 11 AS ord, 'heading_over_120' AS rule
FROM audit_heading_facts
WHERE (length(name) > 120) AND exposed IS NOT FALSE
UNION ALL
-- 12 heading_repeated_in_page: the same heading text at the same level appears more than once in the page
SELECT type, product, pos, i, unit_key, 'heading_repeated_in_page' AS flag, 12 AS ord, 'heading_repeated_in_page' AS rule
FROM audit_heading_facts
WHERE same_in_page > 1
UNION ALL
-- 13 level_skip_hN_to_hM: the heading skips levels after the previous heading
SELECT type, product, pos, i, unit_key, 'level_skip_h' || prev_level || '_to_h' || level AS flag, 13 AS ord, 'level_skip_hN_to_hM' AS rule
FROM audit_heading_facts
WHERE prev_level IS NOT NULL AND level > prev_level + 1
UNION ALL
-- 14 name_from_SOURCE: the heading's name does not come from its text content
SELECT type, product, pos, i, unit_key, 'name_from_' || name_source AS flag, 14 AS ord, 'name_from_SOURCE' AS rule
FROM audit_heading_facts
WHERE name_source NOT IN ('content', 'contents')
UNION ALL
-- 15 link_empty_name: the link has no accessible name by the DOM approximation (a capture without the accessibility tree; with it, link_no_accessible_name says this)
SELECT type, product, pos, i, unit_key, 'link_empty_name' AS flag, 15 AS ord, 'link_empty_name' AS rule
FROM audit_link_facts
WHERE (exposed IS NULL AND empty_name) AND exposed IS NOT FALSE
UNION ALL
-- 16 link_generic_text: the link's name is generic (learn more, click here, ...)
SELECT type, product, pos, i, unit_key, 'link_generic_text' AS flag, 16 AS ord, 'link_generic_text' AS rule
FROM audit_link_facts
WHERE (matches_i(name, '^(click here|here|read more|learn more|more|link|this page|this|download|view|details|go|see more|more info|info|continue|next|previous|back|home page|website|open|full article|full story|page)$')) AND exposed IS NOT FALSE
UNION ALL
-- 17 link_name_is_url: the link's name is a URL (the contains test only skips links whose name's first word is not in the href)
SELECT type, product, pos, i, unit_key, 'link_name_is_url' AS flag, 17 AS ord, 'link_name_is_url' AS rule
FROM audit_link_facts
WHERE (name <> '' AND (matches_i(name, '^https?://') OR (contains(lower(coalesce(href, '') || ' ' || href_raw), split_part(name_norm, ' ', 1)) AND name_norm IN (norm_text(href), norm_text(href_raw))))) AND exposed IS NOT FALSE
UNION ALL
-- 18 file_EXT_not_indicated: the link opens a file whose type neither its name nor its context mentions
SELECT type, product, pos, i, unit_key, 'file_' || file_ext || '_not_indicated' AS flag, 18 AS ord, 'file_EXT_not_indicated' AS rule
FROM audit_link_facts
WHERE (coalesce(file_ext, '') <> '' AND NOT matches_i(name, 'pdf|xlsx?|excel|csv|zip|word|docx?|spreadsheet|download|kb|mb') AND NOT matches_i(context, 'pdf|xlsx?|excel|csv|zip|word|docx?|spreadsheet|download|kb|mb')) AND exposed IS NOT FALSE
UNION ALL
-- 19 new_window_not_indicated: the link opens a new window without saying so
SELECT type, product, pos, i, unit_key, 'new_window_not_indicated' AS flag, 19 AS ord, 'new_window_not_indicated' AS rule
FROM audit_link_facts
WHERE target = '_blank' AND NOT matches_i(name, 'new (window|tab)|opens? in') AND NOT matches_i(coalesce(title, ''), 'new (window|tab)|opens? in')
UNION ALL
-- 20 icon_only_link_weak_alt: an image-only link whose image has no or a generic alt and no aria-label or aria-labelledby name
SELECT type, product, pos, i, unit_key, 'icon_only_link_weak_alt' AS flag, 20 AS ord, 'icon_only_link_weak_alt' AS rule
FROM audit_link_facts
WHERE (icon_only AND (coalesce(img_alt, '') = '' OR matches_i(img_alt, '^(image|photo|picture|icon|logo|graphic|img|figure|banner|thumbnail|arrow|chevron|bullet|spacer|placeholder)$')) AND name_source NOT IN ('aria-label', 'aria-labelledby')) AND exposed IS NOT FALSE
UNION ALL
-- 21 same_name_different_hrefs_in_page: links with this name lead to different documents in the same page (links a person meets; a fragment of the same document is the same place)
SELECT type, product, pos, i, unit_key, 'same_name_different_hrefs_in_page' AS flag, 21 AS ord, 'same_name_different_hrefs_in_page' AS rule
FROM audit_link_facts
WHERE (name <> '' AND hrefs_for_name > 1 AND NOT permalink) AND exposed IS NOT FALSE
UNION ALL
-- 22 title_duplicates_text: the title attribute repeats the link text
SELECT type, product, pos, i, unit_key, 'title_duplicates_text' AS flag, 22 AS ord, 'title_duplicates_text' AS rule
FROM audit_link_facts
WHERE coalesce(title, '') <> '' AND norm_text(title) = norm_text(text)
UNION ALL
-- 23 name_from_title_only: the link is named only by its title attribute
SELECT type, product, pos, i, unit_key, 'name_from_title_only' AS flag, 23 AS ord, 'name_from_title_only' AS rule
FROM audit_link_facts
WHERE name_source = 'title'
UNION ALL
-- 24 href_hash_only: the link's href is only #
SELECT type, product, pos, i, unit_key, 'href_hash_only' AS flag, 24 AS ord, 'href_hash_only' AS rule
FROM audit_link_facts
WHERE same_page AND href_raw = '#'
UNION ALL
-- 25 img_missing_alt_attr: an img without an alt attribute (a capture without the accessibility tree; with it, image_no_accessible_name says whether the image has a name at all)
SELECT type, product, pos, i, unit_key, 'img_missing_alt_attr' AS flag, 25 AS ord, 'img_missing_alt_attr' AS rule
FROM audit_image_facts
WHERE (exposed IS NULL AND tag = 'img' AND NOT alt_present) AND exposed IS NOT FALSE
UNION ALL
-- 26 alt_generic: the alt is a generic word (image, icon, logo, ...)
SELECT type, product, pos, i, unit_key, 'alt_generic' AS flag, 26 AS ord, 'alt_generic' AS rule
FROM audit_image_facts
WHERE (coalesce(text_alt, '') <> '' AND matches_i(trim(text_alt), '^(image|photo|picture|icon|logo|graphic|img|figure|banner|thumbnail|arrow|chevron|bullet|spacer|placeholder)$')) AND exposed IS NOT FALSE
UNION ALL
-- 27 alt_is_filename: the alt is the image's file name
SELECT type, product, pos, i, unit_key, 'alt_is_filename' AS flag, 27 AS ord, 'alt_is_filename' AS rule
FROM audit_image_facts
WHERE (coalesce(text_alt, '') <> '' AND (matches_i(trim(text_alt), '\.(png|jpe?g|gif|svg|webp)$') OR norm_text(text_alt) = norm_text(regexp_replace(src_basename, '\.[a-zA-Z0-9]+$', '')))) AND exposed IS NOT FALSE
UNION ALL
-- 28 alt_over_150: the alt is longer than 150 characters
SELECT type, product, pos, i, unit_key, 'alt_over_150' AS flag, 28 AS ord, 'alt_over_150' AS rule
FROM audit_image_facts
WHERE (length(text_alt) > 150) AND exposed IS NOT FALSE
UNION ALL
-- 29 functional_image_no_name: the only content of a link or button is an image, and neither names it (a capture without the accessibility tree; with it, the link's or image's no_accessible_name flag says this)
SELECT type, product, pos, i, unit_key, 'functional_image_no_name' AS flag, 29 AS ord, 'functional_image_no_name' AS rule
FROM audit_image_facts
WHERE (exposed IS NULL AND functional AND (alt_empty OR (coalesce(alt, '') = '' AND coalesce(aria_label, '') = '' AND coalesce(aria_labelledby_text, '') = '')) AND coalesce(control_name, '') = '') AND exposed IS NOT FALSE
UNION ALL
-- 30 alt_duplicates_control_text: the image's alt repeats the text of the control it sits in
SELECT type, product, pos, i, unit_key, 'alt_duplicates_control_text' AS flag, 30 AS ord, 'alt_duplicates_control_text' AS rule
FROM audit_image_facts
WHERE (in_control AND control_has_text AND norm_text(text_alt) <> '' AND (norm_text(control_name) = norm_text(text_alt) OR starts_with(norm_text(control_name), norm_text(text_alt) || ' ') OR ends_with(norm_text(control_name), ' ' || norm_text(text_alt)))) AND exposed IS NOT FALSE
UNION ALL
-- 31 alt_repeats_adjacent_text: the alt repeats the text next to the image
SELECT type, product, pos, i, unit_key, 'alt_repeats_adjacent_text' AS flag, 31 AS ord, 'alt_repeats_adjacent_text' AS rule
FROM audit_image_facts
WHERE (NOT functional AND coalesce(text_alt, '') <> '' AND context <> '' AND starts_with(norm_text(context), norm_text(text_alt))) AND exposed IS NOT FALSE
UNION ALL
-- 32 svg_unnamed_not_hidden: an svg with no title or aria-label that is not hidden (a capture without the accessibility tree; with it, image_no_accessible_name says this)
SELECT type, product, pos, i, unit_key, 'svg_unnamed_not_hidden' AS flag, 32 AS ord, 'svg_unnamed_not_hidden' AS rule
FROM audit_image_facts
WHERE (exposed IS NULL AND tag = 'svg' AND coalesce(svg_title, '') = '' AND coalesce(aria_label, '') = '' AND NOT aria_hidden AND coalesce(role, '') <> 'presentation') AND exposed IS NOT FALSE
UNION ALL
-- 33 complex_image_short_alt: a chart, map or diagram with a short or no alt and no caption
SELECT type, product, pos, i, unit_key, 'complex_image_short_alt' AS flag, 33 AS ord, 'complex_image_short_alt' AS rule
FROM audit_image_facts
WHERE ((tag = 'canvas' OR matches_i(src_basename || ' ' || coalesce(text_alt, ''), 'map|chart|graph|plot|structure|gauge|legend')) AND (coalesce(text_alt, '') = '' OR length(text_alt) < 40) AND coalesce(figcaption, '') = '') AND exposed IS NOT FALSE
UNION ALL
-- 34 tiny_image_with_alt: an image of at most 20x20 pixels carries an alt
SELECT type, product, pos, i, unit_key, 'tiny_image_with_alt' AS flag, 34 AS ord, 'tiny_image_with_alt' AS rule
FROM audit_image_facts
WHERE coalesce(width, 0) <> 0 AND width <= 20 AND height <= 20 AND coalesce(alt, '') <> ''
UNION ALL
-- 35 field_unlabeled_SOURCE: the field has no label (SOURCE says what it has instead: a placeholder or title alone; with the accessibility tree, a field with no name at all is field_no_accessible_name)
SELECT type, product, pos, i, unit_key, 'field_unlabeled_' || label_source AS flag, 35 AS ord, 'field_unlabeled_SOURCE' AS rule
FROM audit_field_facts
WHERE (label = '' AND (exposed IS NULL OR label_source <> 'none')) AND exposed IS NOT FALSE
UNION ALL
-- 36 label_generic: the label is a generic word (input, field, text, ...)
SELECT type, product, pos, i, unit_key, 'label_generic' AS flag, 36 AS ord, 'label_generic' AS rule
FROM audit_field_facts
WHERE (label <> '' AND matches_i(trim(label), '^(input|field|text|value|enter|select|search)$')) AND exposed IS NOT FALSE
UNION ALL
-- 37 required_not_in_label: a required field whose label and description do not say so
SELECT type, product, pos, i, unit_key, 'required_not_in_label' AS flag, 37 AS ord, 'required_not_in_label' AS rule
FROM audit_field_facts
WHERE (required AND NOT matches_i(label || ' ' || coalesce(describedby_text, ''), 'required|\*')) AND exposed IS NOT FALSE
UNION ALL
-- 38 same_href_multiple_names: links to one destination carry different names across the product's views
SELECT type, product, pos, i, unit_key, 'same_href_multiple_names' AS flag, 38 AS ord, 'same_href_multiple_names' AS rule
FROM audit_ident_facts
WHERE true
UNION ALL
-- 39 image_no_accessible_name: the browser exposes this image (img, svg, role=img, image button, area, object or canvas) with no accessible name: a screen reader announces an image and nothing else
SELECT type, product, pos, i, unit_key, 'image_no_accessible_name' AS flag, 39 AS ord, 'image_no_accessible_name' AS rule
FROM audit_image_facts
WHERE (exposed AND ax_name = '') AND exposed IS NOT FALSE
UNION ALL
-- 40 link_no_accessible_name: the browser exposes this link with no accessible name: a screen reader announces "link" and nothing else
SELECT type, product, pos, i, unit_key, 'link_no_accessible_name' AS flag, 40 AS ord, 'link_no_accessible_name' AS rule
FROM audit_link_facts
WHERE (exposed AND ax_name = '') AND exposed IS NOT FALSE
UNION ALL
-- 41 field_no_accessible_name: the browser exposes this form field with no accessible name: a screen reader announces only its role
SELECT type, product, pos, i, unit_key, 'field_no_accessible_name' AS flag, 41 AS ord, 'field_no_accessible_name' AS rule
FROM audit_field_facts
WHERE (exposed AND ax_name = '') AND exposed IS NOT FALSE
UNION ALL
-- 42 heading_no_accessible_name: the browser exposes this heading with no accessible name (its only text may be aria-hidden)
SELECT type, product, pos, i, unit_key, 'heading_no_accessible_name' AS flag, 42 AS ord, 'heading_no_accessible_name' AS rule
FROM audit_heading_facts
WHERE (exposed AND ax_name = '') AND exposed IS NOT FALSE;
