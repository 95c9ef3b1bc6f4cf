-- corpus_review_updates: one row per verdict of every review batch: the item it decides, its status and review fields now and after, and what blocks applying it (keep + good becomes ready, anything else dropped; a sub-type correction carries its category)
--   batch: the batch number NN
--   source: the batch file
--   batch_line: the verdict's line in it
--   item_id: the item
--   item_line: the item's line in the corpus file
--   current_status: the item's status now
--   new_status: ready or dropped
--   review_verdict: keep or drop
--   review_reason: the verdict's reason
--   alt_quality: good, weak or wrong
--   subtype: the item's sub-type after the verdict (a correction, else unchanged)
--   category: the category of that sub-type
--   applied: whether the item already carries exactly this verdict
--   blocker: why the verdict cannot be applied (NULL when it can)
CREATE OR REPLACE VIEW corpus_review_updates AS
WITH b AS (
    SELECT source, round AS batch, line AS batch_line, jstr(doc, '$.item_id') AS item_id, jstr(doc,
        '$.verdict') AS verdict,
        jstr(doc, '$.alt_quality') AS alt_quality, jstr(doc, '$.reason') AS reason, jstr(doc, '$.subtype') AS subtype
    FROM jsonl_records WHERE kind = 'batch' AND is_object
),
u AS (
    SELECT b.batch, b.source, b.batch_line, b.item_id, i.line AS item_line, i.status AS current_status,
        CASE WHEN b.verdict = 'keep' AND b.alt_quality = 'good' THEN 'ready' ELSE 'dropped' END AS new_status,
        b.verdict AS review_verdict, b.reason AS review_reason, b.alt_quality, coalesce(b.subtype,
            i.subtype) AS subtype,
        s.category, i.status, i.review_verdict AS had_verdict, i.review_reason AS had_reason,
            i.alt_quality AS had_quality,
        i.subtype AS had_subtype, i.category AS had_category, i.image_file, i.image_sha256
    FROM b JOIN corpus_items AS i ON i.id = b.item_id
    LEFT JOIN corpus_subtypes AS s ON s.subtype = coalesce(b.subtype, i.subtype)
)
SELECT batch, source, batch_line, item_id, item_line, current_status, new_status, review_verdict, review_reason,
    alt_quality, subtype, category,
    status = new_status AND had_verdict IS NOT DISTINCT FROM review_verdict AND had_reason IS NOT DISTINCT
        FROM review_reason
        AND had_quality IS NOT DISTINCT FROM alt_quality AND had_subtype IS NOT DISTINCT FROM subtype
        AND had_category IS NOT DISTINCT FROM category AS applied,
    CASE WHEN status <> 'unreviewed' AND NOT (status = new_status AND had_verdict IS NOT DISTINCT FROM review_verdict
              AND had_reason IS NOT DISTINCT FROM review_reason AND had_quality IS NOT DISTINCT FROM alt_quality)
             THEN 'already reviewed (' || status || ') with another verdict: a decided item is not reviewed again'
         WHEN new_status = 'ready' AND (image_file IS NULL OR NOT regexp_full_match(coalesce(image_sha256, ''),
             '[0-9a-f]{64}'))
             THEN 'kept with a good alt, but a ready item needs its archived copy (image_file and image_sha256)'
    END AS blocker
FROM u
ORDER BY batch, batch_line;
