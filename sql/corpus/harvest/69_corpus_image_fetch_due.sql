-- corpus_image_fetch_due: harvest items whose image is not archived on disk: every item not dropped that has an image_url (http(s) or a data: URI) and no copy where its image_file says, or no image_file yet
--   item_id: item id
--   line: the item's line in the corpus file
--   image_url: the URL (or data: URI) to archive
--   image_file: where the copy goes when the item already names it (pool/images/<id>.<ext>)
--   image_sha256: the bytes the copy must hash to, when the harvest pinned them (a copy that hashes otherwise is refused)
--   folder: the folder copies go in, inside the project
CREATE OR REPLACE VIEW corpus_image_fetch_due AS
SELECT i.id AS item_id, i.line, i.image_url, i.image_file,
    CASE WHEN regexp_full_match(coalesce(i.image_sha256, ''), '[0-9a-f]{64}') THEN i.image_sha256 END AS image_sha256,
    'pool/images' AS folder
FROM corpus_items AS i LEFT JOIN image_copies AS c ON c.path = i.image_file
WHERE i.status <> 'dropped' AND i.image_url IS NOT NULL AND (i.image_file IS NULL OR NOT coalesce(c.present, false))
ORDER BY i.line;
