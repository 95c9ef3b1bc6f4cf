-- corpus_pending: the work the corpus still owes, one row per item and kind of work
--   item_id: item id
--   line: the item's line in the corpus file
--   status: the item's status
--   work: second_pass, adjudication, image_copy or unrecorded_second_pass
--   detail: what exactly is owed
CREATE OR REPLACE VIEW corpus_pending AS
SELECT d.item_id, d.line, i.status, 'second_pass' AS work, 'needs a blind second pass' AS detail
FROM corpus_second_pass_due AS d JOIN corpus_items AS i ON i.source = d.source AND i.line = d.line
UNION ALL
SELECT id, line, status, 'adjudication', 'passes disagree: ' || array_to_string(list_transform(gold_alt_passes,
    lambda p: p.author || '="' || p.alt || '"'), ', ')
FROM corpus_items WHERE status <> 'rejected' AND pass_count >= 2 AND NOT pass_alts_agree AND NOT adjudicated
UNION ALL
SELECT i.id, i.line, i.status, 'image_copy', CASE WHEN i.image_file IS NULL THEN 'no local copy of ' || i.image_url
    ELSE 'local copy ' || i.image_file || ' is missing on disk' END
FROM corpus_items AS i LEFT JOIN image_copies AS c ON c.path = i.image_file
WHERE i.status <> 'rejected' AND i.image_url IS NOT NULL AND (i.image_file IS NULL OR NOT coalesce(c.present, true))
UNION ALL
SELECT w.record_id, w.line, i.status, w.code, w.message
FROM corpus_warnings AS w JOIN corpus_items AS i ON i.source = w.source AND i.line = w.line
ORDER BY line, work;
