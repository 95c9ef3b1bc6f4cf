-- audit_flag_rules: the deterministic flags, one row per rule; `jfi schema` and the docs list them. Flags are evidence, never verdicts
--   ord: rule order (a unit's flags are listed in the order they first fired, then by this)
--   flag: flag id (N, SOURCE and EXT stand for the number, name source or file type in the flag's name)
--   type: unit type the rule applies to (its facts view is audit_<type>_facts)
--   sc: WCAG success criterion of that type
--   informational: whether the flag only informs (never counts as "flagged" when sampling)
--   condition: SQL condition over the facts view; the flag fires on a row where it holds
--   flag_name: SQL expression giving the flag's name on that row
--   meaning: what the flag says, in words
--   pattern: regular expression matching every name the flag takes
CREATE OR REPLACE TABLE audit_flag_rules AS
SELECT *, '^' || regexp_replace(replace(replace(replace(replace(replace(flag, 'SOURCE', '.+'), 'EXT', '[a-z0-9]+'),
        '_N_', '_[0-9]+_'), 'hN', 'h[0-9]+'), 'hM', 'h[0-9]+'), '_N$', '_[0-9]+') || '$' AS pattern
FROM (VALUES
    (1, 'title_empty', 'title', '2.4.2', false, 'trim(name) = ''''', '''title_empty''', 'the page has no title'),
    (2, 'title_shared_by_N_views', 'title', '2.4.2', false, 'title_views > 1', '''title_shared_by_'' || title_views || ''_views''', 'N views of the product share this title'),
    (3, 'title_shares_no_word_with_h1', 'title', '2.4.2', false, 'len(h1s) > 0 AND NOT coalesce(list_bool_or(list_transform(h1_words, lambda w: contains(norm_text(name), w))), false)', '''title_shares_no_word_with_h1''', 'no word of more than three letters in the h1 appears in the title'),
    (4, 'no_h1', 'title', '2.4.2', true, 'h1_count = 0', '''no_h1''', 'the page has no h1'),
    (5, 'h1_count_N', 'title', '2.4.2', true, 'h1_count > 1', '''h1_count_'' || h1_count', 'the page has N h1 elements'),
    (6, 'empty_h1', 'title', '2.4.2', true, 'has_empty_h1', '''empty_h1''', 'an h1 has no text'),
    (7, 'title_over_120', 'title', '2.4.2', false, 'length(name) > 120', '''title_over_120''', 'the title is longer than 120 characters'),
    (8, 'heading_empty', 'heading', '2.4.6', false, 'name = ''''', '''heading_empty''', 'the heading has no text'),
    (9, 'heading_generic', 'heading', '2.4.6', false, 'matches_i(name, ''^(overview|details|detail|more|information|info|section|untitled|content|title|heading|description|summary|misc|other|general|notes?)$'')', '''heading_generic''', 'the heading is a generic word (overview, details, more, ...)'),
    (10, 'heading_numeric_only', 'heading', '2.4.6', false, 'name <> '''' AND regexp_matches(name, ''^[0-9.,%\s-]+$'')', '''heading_numeric_only''', 'the heading is only digits and punctuation'),
    (11, 'heading_over_120', 'heading', '2.4.6', false, 'length(name) > 120', '''heading_over_120''', 'the heading is longer than 120 characters'),
    (12, 'heading_repeated_in_page', 'heading', '2.4.6', true, 'same_in_page > 1', '''heading_repeated_in_page''', 'the same heading text at the same level appears more than once in the page'),
    (13, 'level_skip_hN_to_hM', 'heading', '2.4.6', true, 'prev_level IS NOT NULL AND level > prev_level + 1', '''level_skip_h'' || prev_level || ''_to_h'' || level', 'the heading skips levels after the previous heading'),
    (14, 'name_from_SOURCE', 'heading', '2.4.6', true, 'name_source <> ''content''', '''name_from_'' || name_source', 'the heading''s name does not come from its text content'),
    (15, 'link_empty_name', 'link', '2.4.4', false, 'empty_name', '''link_empty_name''', 'the link has no accessible name'),
    (16, 'link_generic_text', 'link', '2.4.4', false, 'matches_i(name, ''^(click here|here|read more|learn more|more|link|this page|this|download|view|details|go|see more|more info|info|continue|next|previous|back|home page|website|open|full article|full story|page)$'')', '''link_generic_text''', 'the link''s name is generic (learn more, click here, ...)'),
    (17, 'link_name_is_url', 'link', '2.4.4', false, 'name <> '''' AND (matches_i(name, ''^https?://'') OR (contains(lower(coalesce(href, '''') || '' '' || href_raw), split_part(name_norm, '' '', 1)) AND name_norm IN (norm_text(href), norm_text(href_raw))))', '''link_name_is_url''', 'the link''s name is a URL (the contains test only skips links whose name''s first word is not in the href)'),
    (18, 'file_EXT_not_indicated', 'link', '2.4.4', false, 'coalesce(file_ext, '''') <> '''' AND NOT matches_i(name, ''pdf|xlsx?|excel|csv|zip|word|docx?|spreadsheet|download|kb|mb'') AND NOT matches_i(context, ''pdf|xlsx?|excel|csv|zip|word|docx?|spreadsheet|download|kb|mb'')', '''file_'' || file_ext || ''_not_indicated''', 'the link opens a file whose type neither its name nor its context mentions'),
    (19, 'new_window_not_indicated', 'link', '2.4.4', true, 'target = ''_blank'' AND NOT matches_i(name, ''new (window|tab)|opens? in'') AND NOT matches_i(coalesce(title, ''''), ''new (window|tab)|opens? in'')', '''new_window_not_indicated''', 'the link opens a new window without saying so'),
    (20, 'icon_only_link_weak_alt', 'link', '2.4.4', false, 'icon_only AND (coalesce(img_alt, '''') = '''' OR matches_i(img_alt, ''^(image|photo|picture|icon|logo|graphic|img|figure|banner|thumbnail|arrow|chevron|bullet|spacer|placeholder)$'')) AND name_source NOT IN (''aria-label'', ''aria-labelledby'')', '''icon_only_link_weak_alt''', 'an image-only link whose image has no or a generic alt and no aria-label or aria-labelledby name'),
    (21, 'same_name_different_hrefs_in_page', 'link', '2.4.4', false, 'name <> '''' AND hrefs_for_name > 1', '''same_name_different_hrefs_in_page''', 'links with this name go to different destinations in the same page'),
    (22, 'title_duplicates_text', 'link', '2.4.4', true, 'coalesce(title, '''') <> '''' AND norm_text(title) = norm_text(text)', '''title_duplicates_text''', 'the title attribute repeats the link text'),
    (23, 'name_from_title_only', 'link', '2.4.4', true, 'name_source = ''title''', '''name_from_title_only''', 'the link is named only by its title attribute'),
    (24, 'href_hash_only', 'link', '2.4.4', true, 'same_page AND href_raw = ''#''', '''href_hash_only''', 'the link''s href is only #'),
    (25, 'img_missing_alt_attr', 'image', '1.1.1', false, 'tag = ''img'' AND NOT alt_present', '''img_missing_alt_attr''', 'an img without an alt attribute'),
    (26, 'alt_generic', 'image', '1.1.1', false, 'coalesce(alt, '''') <> '''' AND matches_i(trim(alt), ''^(image|photo|picture|icon|logo|graphic|img|figure|banner|thumbnail|arrow|chevron|bullet|spacer|placeholder)$'')', '''alt_generic''', 'the alt is a generic word (image, icon, logo, ...)'),
    (27, 'alt_is_filename', 'image', '1.1.1', false, 'coalesce(alt, '''') <> '''' AND (matches_i(trim(alt), ''\.(png|jpe?g|gif|svg|webp)$'') OR norm_text(alt) = norm_text(regexp_replace(src_basename, ''\.[a-zA-Z0-9]+$'', '''')))', '''alt_is_filename''', 'the alt is the image''s file name'),
    (28, 'alt_over_150', 'image', '1.1.1', false, 'length(alt) > 150', '''alt_over_150''', 'the alt is longer than 150 characters'),
    (29, 'functional_image_no_name', 'image', '1.1.1', false, 'functional AND (alt_empty OR (coalesce(alt, '''') = '''' AND coalesce(aria_label, '''') = '''' AND coalesce(aria_labelledby_text, '''') = '''')) AND coalesce(control_name, '''') = ''''', '''functional_image_no_name''', 'the only content of a link or button is an image, and neither names it'),
    (30, 'alt_duplicates_control_text', 'image', '1.1.1', false, 'in_control AND control_has_text AND norm_text(alt) <> '''' AND (norm_text(control_name) = norm_text(alt) OR starts_with(norm_text(control_name), norm_text(alt) || '' '') OR ends_with(norm_text(control_name), '' '' || norm_text(alt)))', '''alt_duplicates_control_text''', 'the image''s alt repeats the text of the control it sits in'),
    (31, 'alt_repeats_adjacent_text', 'image', '1.1.1', false, 'NOT functional AND coalesce(alt, '''') <> '''' AND context <> '''' AND starts_with(norm_text(context), norm_text(alt))', '''alt_repeats_adjacent_text''', 'the alt repeats the text next to the image'),
    (32, 'svg_unnamed_not_hidden', 'image', '1.1.1', false, 'tag = ''svg'' AND coalesce(svg_title, '''') = '''' AND coalesce(aria_label, '''') = '''' AND NOT aria_hidden AND coalesce(role, '''') <> ''presentation''', '''svg_unnamed_not_hidden''', 'an svg with no title or aria-label that is not hidden'),
    (33, 'complex_image_short_alt', 'image', '1.1.1', false, '(tag = ''canvas'' OR matches_i(src_basename || '' '' || coalesce(alt, ''''), ''map|chart|graph|plot|structure|gauge|legend'')) AND (coalesce(alt, '''') = '''' OR length(alt) < 40) AND coalesce(figcaption, '''') = ''''', '''complex_image_short_alt''', 'a chart, map or diagram with a short or no alt and no caption'),
    (34, 'tiny_image_with_alt', 'image', '1.1.1', true, 'coalesce(width, 0) <> 0 AND width <= 20 AND height <= 20 AND coalesce(alt, '''') <> ''''', '''tiny_image_with_alt''', 'an image of at most 20x20 pixels carries an alt'),
    (35, 'field_unlabeled_SOURCE', 'field', '2.4.6', false, 'label = ''''', '''field_unlabeled_'' || label_source', 'the field has no label (SOURCE says what it has instead)'),
    (36, 'label_generic', 'field', '2.4.6', false, 'label <> '''' AND matches_i(trim(label), ''^(input|field|text|value|enter|select|search)$'')', '''label_generic''', 'the label is a generic word (input, field, text, ...)'),
    (37, 'required_not_in_label', 'field', '2.4.6', false, 'required AND NOT matches_i(label || '' '' || coalesce(describedby_text, ''''), ''required|\*'')', '''required_not_in_label''', 'a required field whose label and description do not say so'),
    (39, 'image_no_accessible_name', 'image', '1.1.1', false, 'exposed AND ax_name = ''''', '''image_no_accessible_name''', 'the browser exposes this image (img, svg, role=img, image button, area, object or canvas) with no accessible name: a screen reader announces an image and nothing else'),
    (40, 'link_no_accessible_name', 'link', '2.4.4', false, 'exposed AND ax_name = ''''', '''link_no_accessible_name''', 'the browser exposes this link with no accessible name: a screen reader announces "link" and nothing else'),
    (41, 'field_no_accessible_name', 'field', '2.4.6', false, 'exposed AND ax_name = ''''', '''field_no_accessible_name''', 'the browser exposes this form field with no accessible name: a screen reader announces only its role'),
    (42, 'heading_no_accessible_name', 'heading', '2.4.6', false, 'exposed AND ax_name = ''''', '''heading_no_accessible_name''', 'the browser exposes this heading with no accessible name (its only text may be aria-hidden)'),
    (38, 'same_href_multiple_names', 'ident', '3.2.4', false, 'true', '''same_href_multiple_names''', 'links to one destination carry different names across the product''s views')
) AS t(ord, flag, type, sc, informational, condition, flag_name, meaning);
