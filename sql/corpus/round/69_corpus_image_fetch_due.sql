-- corpus_image_fetch_due: items whose image_url still needs a local copy (candidate, needs-revision or accepted, no image_file yet)
--   item_id: item id
--   line: the item's line in the corpus file
--   image_url: the URL to archive
CREATE OR REPLACE VIEW corpus_image_fetch_due AS
SELECT id AS item_id, line, image_url
FROM corpus_items
WHERE status IN ('candidate', 'needs-revision', 'accepted') AND image_url IS NOT NULL AND image_file IS NULL
ORDER BY line;
