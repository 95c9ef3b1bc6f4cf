-- field_specs (item rows of the harvest profile): the fields upstream's harvest, fetch and review tools write; other keys are taken as they come
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning)
SELECT 'item', * FROM (VALUES
    ('*', false, [], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'keys the harvest format does not list are taken as they come'),
    ('id', true, ['string'], NULL, 'fi-\d{4,}', NULL, NULL, NULL, NULL, NULL, 'item id, fi- and at least four digits, unique'),
    ('status', true, ['string'], ['unreviewed', 'ready', 'dropped'], NULL, NULL, NULL, NULL, NULL, NULL, 'review status: only a review batch changes it'),
    ('sector', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'the seed list''s sector (government, education, publishing, docs, commerce, news, webapp)'),
    ('image_url', true, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the resolved image URL or a data: URI; null for an inline svg'),
    ('image_svg', true, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'inline-svg only: a standalone SVG document'),
    ('image_coord_space', true, ['string', 'null'], NULL, '[1-9][0-9]*x[1-9][0-9]*', NULL, NULL, NULL, NULL, NULL, 'area only: WIDTHxHEIGHT of the map image as displayed, neither zero; else null'),
    ('image_file', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'archived copy, e.g. pool/images/<id>.<ext>; null until a copy exists'),
    ('image_sha256', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'lowercase hex sha256 of that copy; null until then'),
    ('implementation', true, ['string'], ['img', 'inline-svg', 'input-image', 'area'], NULL, NULL, NULL, NULL, NULL, NULL, 'how the image is drawn'),
    ('element_role', true, ['string'], ['link', 'button', 'input-image', 'area', 'custom'], NULL, NULL, NULL, NULL, NULL, NULL, 'the interactive element around the image'),
    ('retrieved', true, ['string'], NULL, '\d{4}-\d{2}-\d{2}', NULL, NULL, NULL, NULL, NULL, 'the day the page was fetched, YYYY-MM-DD'),
    ('review_verdict', false, ['string', 'null'], ['keep', 'drop'], NULL, NULL, NULL, NULL, NULL, NULL, 'keep or drop; null while unreviewed'),
    ('review_reason', false, ['string', 'null'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'why, in prose; null while unreviewed'),
    ('alt_quality', false, ['string', 'null'], ['good', 'weak', 'wrong'], NULL, NULL, NULL, NULL, NULL, NULL, 'good, weak or wrong; null while unreviewed')
) AS t(field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning);
