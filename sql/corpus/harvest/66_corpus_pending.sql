-- corpus_pending: the work a harvest corpus still owes, one row per item and kind of work: review for an unreviewed item, an archived copy for a ready item whose copy is missing on disk
--   item_id: item id
--   status: its status
--   work: review or image copy
--   detail: what to do
CREATE OR REPLACE VIEW corpus_pending AS
SELECT id AS item_id, status, 'review' AS work, 'waiting for a review batch' AS detail
FROM corpus_items WHERE status = 'unreviewed'
UNION ALL
SELECT i.id, i.status, 'image copy', 'the archived copy ' || i.image_file || ' is not on disk'
FROM corpus_items AS i JOIN image_copies AS c ON c.path = i.image_file
WHERE i.status = 'ready' AND NOT c.present
ORDER BY item_id, work;
