-- is_decisive: whether a flag counts (is not informational): a unit is "flagged" when one of its flags is decisive
-- audit_flag_rules: the deterministic flags, one row per rule (its condition is its branch of audit_flags, 39_audit_flags.sql, or for the comparison with axe-core of audit_axe_flags, 39_audit_axe_flags.sql); `jfi schema` and the docs list them. Flags are evidence, never verdicts
--   ord: rule order (a unit's flags are listed in the order they first fired, then by this)
--   flag: flag id (N, SOURCE and EXT stand for the number, name source or file type in the flag's name)
--   type: unit type the rule applies to (its facts view is audit_<type>_facts)
--   sc: WCAG success criterion of that type
--   informational: whether the flag only informs (never counts as "flagged" when sampling)
--   meaning: what the flag says, in words
--   pattern: regular expression matching every name the flag takes
CREATE OR REPLACE TABLE audit_flag_rules AS
SELECT *, '^' || regexp_replace(replace(replace(replace(replace(replace(flag, 'SOURCE', '.+'), 'EXT', '[a-z0-9]+'),
        '_N_', '_[0-9]+_'), 'hN', 'h[0-9]+'), 'hM', 'h[0-9]+'), '_N$', '_[0-9]+') || '$' AS pattern
FROM (VALUES
    (1, 'title_empty', 'title', '2.4.2', false, 'the page has no title'),
    (2, 'title_shared_by_N_views', 'title', '2.4.2', false, 'N views of the product share this title'),
    (3, 'title_shares_no_word_with_h1', 'title', '2.4.2', false, 'no word of more than three letters in the h1 appears in the title'),
    (4, 'no_h1', 'title', '2.4.2', true, 'the page has no h1'),
    (5, 'h1_count_N', 'title', '2.4.2', true, 'the page has N h1 elements'),
    (6, 'empty_h1', 'title', '2.4.2', true, 'an h1 has no text'),
    (7, 'title_over_120', 'title', '2.4.2', false, 'the title is longer than 120 characters'),
    (8, 'heading_empty', 'heading', '2.4.6', false, 'the heading has no text (a capture without the accessibility tree; with it, heading_no_accessible_name says this)'),
    (9, 'heading_generic', 'heading', '2.4.6', false, 'the heading is a generic word (overview, details, more, ...)'),
    (10, 'heading_numeric_only', 'heading', '2.4.6', false, 'the heading is only digits and punctuation'),
    (11, 'heading_over_120', 'heading', '2.4.6', false, 'the heading is longer than 120 characters'),
    (12, 'heading_repeated_in_page', 'heading', '2.4.6', true, 'the same heading text at the same level appears more than once in the page'),
    (13, 'level_skip_hN_to_hM', 'heading', '2.4.6', true, 'the heading skips levels after the previous heading'),
    (14, 'name_from_SOURCE', 'heading', '2.4.6', true, 'the heading''s name does not come from its text content'),
    (15, 'link_empty_name', 'link', '2.4.4', false, 'the link has no accessible name by the DOM approximation (a capture without the accessibility tree; with it, link_no_accessible_name says this)'),
    (16, 'link_generic_text', 'link', '2.4.4', false, 'the link''s name is generic (learn more, click here, ...)'),
    (17, 'link_name_is_url', 'link', '2.4.4', false, 'the link''s name is a URL (the contains test only skips links whose name''s first word is not in the href)'),
    (18, 'file_EXT_not_indicated', 'link', '2.4.4', false, 'the link opens a file whose type neither its name nor its context mentions'),
    (19, 'new_window_not_indicated', 'link', '2.4.4', true, 'the link opens a new window without saying so'),
    (20, 'icon_only_link_weak_alt', 'link', '2.4.4', false, 'an image-only link whose image has no or a generic alt and no aria-label or aria-labelledby name'),
    (21, 'same_name_different_hrefs_in_page', 'link', '2.4.4', false, 'links with this name lead to different documents in the same page (links a person meets; a fragment of the same document is the same place)'),
    (22, 'title_duplicates_text', 'link', '2.4.4', true, 'the title attribute repeats the link text'),
    (23, 'name_from_title_only', 'link', '2.4.4', true, 'the link is named only by its title attribute'),
    (24, 'href_hash_only', 'link', '2.4.4', true, 'the link''s href is only #'),
    (25, 'img_missing_alt_attr', 'image', '1.1.1', false, 'an img without an alt attribute (a capture without the accessibility tree; with it, image_no_accessible_name says whether the image has a name at all)'),
    (26, 'alt_generic', 'image', '1.1.1', false, 'the alt is a generic word (image, icon, logo, ...)'),
    (27, 'alt_is_filename', 'image', '1.1.1', false, 'the alt is the image''s file name'),
    (28, 'alt_over_150', 'image', '1.1.1', false, 'the alt is longer than 150 characters'),
    (29, 'functional_image_no_name', 'image', '1.1.1', false, 'the only content of a link or button is an image, and neither names it (a capture without the accessibility tree; with it, the link''s or image''s no_accessible_name flag says this)'),
    (30, 'alt_duplicates_control_text', 'image', '1.1.1', false, 'the image''s alt repeats the text of the control it sits in'),
    (31, 'alt_repeats_adjacent_text', 'image', '1.1.1', false, 'the alt repeats the text next to the image'),
    (32, 'svg_unnamed_not_hidden', 'image', '1.1.1', false, 'an svg with no title or aria-label that is not hidden (a capture without the accessibility tree; with it, image_no_accessible_name says this)'),
    (33, 'complex_image_short_alt', 'image', '1.1.1', false, 'a chart, map or diagram with a short or no alt and no caption'),
    (34, 'tiny_image_with_alt', 'image', '1.1.1', true, 'an image of at most 20x20 pixels carries an alt'),
    (35, 'field_unlabeled_SOURCE', 'field', '2.4.6', false, 'the field has no label (SOURCE says what it has instead: a placeholder or title alone; with the accessibility tree, a field with no name at all is field_no_accessible_name)'),
    (36, 'label_generic', 'field', '2.4.6', false, 'the label is a generic word (input, field, text, ...)'),
    (37, 'required_not_in_label', 'field', '2.4.6', false, 'a required field whose label and description do not say so'),
    (38, 'same_href_multiple_names', 'ident', '3.2.4', false, 'links to one destination carry different names across the product''s views'),
    (39, 'image_no_accessible_name', 'image', '1.1.1', false, 'the browser exposes this image (img, svg, role=img, image button, area, object or canvas) with no accessible name: a screen reader announces an image and nothing else'),
    (40, 'link_no_accessible_name', 'link', '2.4.4', false, 'the browser exposes this link with no accessible name: a screen reader announces "link" and nothing else'),
    (41, 'field_no_accessible_name', 'field', '2.4.6', false, 'the browser exposes this form field with no accessible name: a screen reader announces only its role'),
    (42, 'heading_no_accessible_name', 'heading', '2.4.6', false, 'the browser exposes this heading with no accessible name (its only text may be aria-hidden)'),
    (43, 'axe_violation', 'finding', '', false, 'axe-core reports this element as failing its rule (the row names the rule): a person confirms it'),
    (44, 'axe_needs_review', 'finding', '', false, 'axe-core could not decide on this element (an incomplete result): a person decides'),
    (45, 'jfi_agrees', 'finding', '', true, 'jfi''s own flag for the same failure fired on the same element'),
    (46, 'jfi_disagrees', 'finding', '', false, 'jfi captured the same element and its own flag for this failure did not fire: a person decides which tool is right'),
    (47, 'axe_disagrees', 'title', '2.4.2', false, 'axe-core ran its rule for this failure on this view and did not report it: a person decides which tool is right'),
    (48, 'axe_disagrees', 'heading', '2.4.6', false, 'axe-core ran its rule for this failure on this view and did not report it: a person decides which tool is right'),
    (49, 'axe_disagrees', 'link', '2.4.4', false, 'axe-core ran its rule for this failure on this view and did not report it: a person decides which tool is right'),
    (50, 'axe_disagrees', 'image', '1.1.1', false, 'axe-core ran its rule for this failure on this view and did not report it: a person decides which tool is right'),
    (51, 'axe_disagrees', 'field', '2.4.6', false, 'axe-core ran its rule for this failure on this view and did not report it: a person decides which tool is right')
) AS t(ord, flag, type, sc, informational, meaning);

CREATE OR REPLACE MACRO is_decisive(candidate) AS
    NOT EXISTS (SELECT 1 FROM audit_flag_rules AS r WHERE r.informational AND regexp_full_match(candidate, r.pattern));
