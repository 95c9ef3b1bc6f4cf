-- corpus_warnings: findings that never change an exit code: the readings of upstream's README and directives that its validator does not enforce (the data was built against the validator), and ready items whose archived copy is missing on disk
--   source: corpus file path
--   line: 1-based line number
--   record_id: item id
--   field: the field concerned
--   code: warning code
--   message: what was found, in words
CREATE OR REPLACE VIEW corpus_warnings AS
WITH items AS (SELECT * FROM corpus_items)
SELECT source, line, id AS record_id, 'review_reason' AS field, 'review_reason_short' AS code,
       'the README asks for at least 20 characters; this reason has ' || length(review_reason) AS message
FROM items WHERE review_reason IS NOT NULL AND trim(review_reason) <> '' AND length(review_reason) < 20
UNION ALL
SELECT source, line, id, 'sector', 'sector_unknown', 'sector "' || sector || '" is not one of the seven in the README'
FROM items WHERE sector IS NOT NULL AND trim(sector) <> '' AND sector NOT IN (SELECT sector FROM corpus_sectors)
UNION ALL
SELECT source, line, id, 'domain', 'domain_not_literal_host',
       'the README says "the host of page_url" (' || url_host(page_url)
           || '); the validator, like the harvester, drops the www.'
FROM items WHERE is_http_url(page_url) AND domain IS NOT NULL AND domain = url_domain(page_url)
    AND domain <> url_host(page_url)
UNION ALL
SELECT source, line, id, 'surrounding_text', 'surrounding_text_long',
       'the README says up to 240 characters; this one has ' || length(surrounding_text)
FROM items WHERE length(surrounding_text) > 240
UNION ALL
SELECT source, line, id, 'image_sha256', 'image_sha256_shape', 'image_sha256 should be 64 lowercase hex characters'
FROM items WHERE status <> 'ready' AND image_sha256 IS NOT NULL AND NOT regexp_full_match(image_sha256, '[0-9a-f]{64}')
UNION ALL
SELECT source, line, id, 'image_file', 'image_file_path', 'the README names copies pool/images/' || coalesce(id, '<id>')
    || '.<ext>'
FROM items WHERE image_file IS NOT NULL AND NOT regexp_full_match(image_file, 'pool/images/' || coalesce(id, '')
    || '\.[A-Za-z0-9]+')
UNION ALL
SELECT source, line, id, 'status', 'dropped_keep_good',
    'kept with a good alt, which the README says becomes ready, yet dropped'
FROM items WHERE status = 'dropped' AND review_verdict = 'keep' AND alt_quality = 'good'
UNION ALL
SELECT source, line, id, 'retrieved', 'retrieved_not_a_date', '"' || retrieved
    || '" has the shape of a date but is not one'
FROM items WHERE regexp_full_match(coalesce(retrieved, ''), '\d{4}-\d{2}-\d{2}') AND NOT is_calendar_day(retrieved)
UNION ALL
SELECT i.source, i.line, i.id, 'image_file', 'ready_without_image_copy', 'the archived copy ' || i.image_file
    || ' of a ready item is not on disk'
FROM items AS i JOIN image_copies AS c ON c.path = i.image_file
WHERE i.status = 'ready' AND NOT c.present
ORDER BY source, line, field, code;
