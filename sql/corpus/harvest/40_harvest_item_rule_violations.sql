-- harvest_item_rule_violations: one row per broken cross-field rule of a harvest item, as upstream's validator checks them (the README's stricter readings are corpus_warnings)
--   source: corpus file path
--   line: 1-based line number
--   record_id: item id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW harvest_item_rule_violations AS
WITH items AS (SELECT * FROM corpus_items)
SELECT source, line, id AS record_id, 'image_url' AS field, 'image_url_required' AS code,
       'implementation ' || implementation || ' needs an image_url (a URL or a data: URI)' AS message
FROM items WHERE implementation IN ('img', 'input-image', 'area') AND types.image_url IN ('null', 'absent')
UNION ALL
SELECT source, line, id, 'image_url', 'invalid_value', '"' || image_url || '" is neither an http(s) URL nor a data: URI'
FROM items WHERE image_url IS NOT NULL AND NOT is_http_url(image_url) AND NOT starts_with(image_url, 'data:')
UNION ALL
SELECT source, line, id, 'image_url', 'image_url_forbidden',
    'an inline-svg item has no image_url (its bytes are image_svg)'
FROM items WHERE implementation = 'inline-svg' AND image_url IS NOT NULL
UNION ALL
SELECT source, line, id, 'image_svg', 'image_svg_required',
    'an inline-svg item needs image_svg, a standalone SVG document'
FROM items WHERE implementation = 'inline-svg' AND types.image_svg IN ('null', 'absent')
UNION ALL
SELECT source, line, id, 'image_svg', 'invalid_value', 'image_svg must start with <svg and declare xmlns='
FROM items WHERE image_svg IS NOT NULL AND NOT (starts_with(ltrim(image_svg), '<svg') AND contains(image_svg, 'xmlns='))
UNION ALL
SELECT source, line, id, 'image_svg', 'image_svg_forbidden', 'only an inline-svg item has image_svg; this one is '
    || implementation
FROM items WHERE image_svg IS NOT NULL AND implementation IS NOT NULL AND implementation <> 'inline-svg'
UNION ALL
SELECT source, line, id, 'image_coord_space', 'coord_space_not_area',
    'image_coord_space is only for an area; this element is ' || element_role
FROM items WHERE image_coord_space IS NOT NULL AND element_role IS NOT NULL AND element_role <> 'area'
UNION ALL
SELECT source, line, id, 'element_html', 'invalid_value', 'element_html must be markup starting with <'
FROM items WHERE element_html IS NOT NULL AND trim(element_html) <> '' AND NOT starts_with(element_html, '<')
UNION ALL
SELECT source, line, id, 'review_verdict', 'ready_not_keep_good',
       'a ready item was kept with a good alt; this one is ' || coalesce(review_verdict, 'null') || '/'
           || coalesce(alt_quality, 'null')
FROM items WHERE status = 'ready' AND NOT (coalesce(review_verdict, '') = 'keep' AND coalesce(alt_quality, '') = 'good')
UNION ALL
SELECT source, line, id, 'image_file', 'ready_without_image_file', 'a ready item needs image_file, its archived copy'
FROM items WHERE status = 'ready' AND image_file IS NULL
UNION ALL
SELECT source, line, id, 'image_sha256', 'invalid_value', 'a ready item needs image_sha256, 64 lowercase hex characters'
FROM items WHERE status = 'ready' AND NOT regexp_full_match(coalesce(image_sha256, ''), '[0-9a-f]{64}')
UNION ALL
SELECT source, line, id, f.field, 'review_field_missing', 'a reviewed (' || status || ') item needs ' || f.field
FROM items, (VALUES ('review_verdict'), ('review_reason'), ('alt_quality')) AS f(field)
WHERE status IN ('ready', 'dropped') AND CASE f.field WHEN 'review_verdict' THEN review_verdict IS NULL
    WHEN 'review_reason' THEN review_reason IS NULL ELSE alt_quality IS NULL END
    AND CASE f.field WHEN 'review_verdict' THEN types.review_verdict WHEN 'review_reason' THEN types.review_reason
        ELSE types.alt_quality END IN ('null', 'absent')
UNION ALL
SELECT source, line, id, f.field, 'review_field_unreviewed', 'an unreviewed item has no ' || f.field || ' yet'
FROM items, (VALUES ('review_verdict'), ('review_reason'), ('alt_quality')) AS f(field)
WHERE status = 'unreviewed' AND CASE f.field WHEN 'review_verdict' THEN types.review_verdict
    WHEN 'review_reason' THEN types.review_reason ELSE types.alt_quality END NOT IN ('null', 'absent');
