-- corpus_image_fetch_due: items whose image_url still needs a local copy (candidate, needs-revision or accepted, no image_file yet)
--   item_id: item id
--   line: the item's line in the corpus file
--   image_url: the URL to archive
--   image_file: where the copy goes when the item already names it (never, in the round formats: fetch-images names it)
--   image_sha256: the bytes the copy must hash to, when the item already pins them (never, in the round formats)
--   folder: the folder copies go in, inside the project
CREATE OR REPLACE VIEW corpus_image_fetch_due AS
SELECT id AS item_id, line, image_url, CAST(NULL AS VARCHAR) AS image_file, CAST(NULL AS VARCHAR) AS image_sha256,
    'corpus/images' AS folder
FROM corpus_items
WHERE status IN ('candidate', 'needs-revision', 'accepted') AND image_url IS NOT NULL AND image_file IS NULL
ORDER BY line;
