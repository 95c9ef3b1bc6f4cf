-- corpus_verdicts: per round, the verdict that applies to each item (the last record for an item wins) and the status it maps to
--   round: review round
--   item_id: item id
--   review_line: line of the winning review record
--   verdict: accept, revise or reject
--   item_line: the item's line in the corpus file
--   current_status: the item's status now
--   new_status: accepted, needs-revision or rejected
-- corpus_verdict_blockers: accepts that would promote an item that may not be accepted, one row per reason
--   round: review round
--   item_id: item id
--   review_line: line of the accept in the review file
--   reason: why the accept is refused
CREATE OR REPLACE VIEW corpus_verdicts AS
SELECT r.round, r.item_id, r.line AS review_line, r.verdict, i.line AS item_line, i.status AS current_status,
    CASE r.verdict WHEN 'accept' THEN 'accepted' WHEN 'revise' THEN 'needs-revision' WHEN 'reject'
        THEN 'rejected' END AS new_status
FROM (SELECT *, row_number() OVER (PARTITION BY round, item_id ORDER BY line DESC) AS nth FROM corpus_reviews) AS r
JOIN corpus_items AS i ON i.id = r.item_id
WHERE r.nth = 1 AND r.verdict IN ('accept', 'revise', 'reject');

CREATE OR REPLACE VIEW corpus_verdict_blockers AS
SELECT v.round, v.item_id, v.review_line, b.reason
FROM corpus_verdicts AS v
JOIN corpus_items AS i ON i.line = v.item_line
LEFT JOIN image_copies AS c ON c.path = i.image_file
CROSS JOIN LATERAL (
    SELECT 'the item is leaky' AS reason WHERE i.leaky
    UNION ALL SELECT 'a single gold-standard pass and no adjudication' WHERE NOT i.adjudicated AND i.pass_count < 2
    UNION ALL SELECT 'the passes disagree and no adjudication is set' WHERE NOT i.adjudicated AND i.pass_count >= 2
        AND NOT i.pass_alts_agree
    UNION ALL SELECT CASE WHEN i.image_file IS NULL THEN 'it has an image_url but no local copy'
                          WHEN NOT coalesce(c.present, false) THEN 'its local copy ' || i.image_file || ' is missing'
                          ELSE 'its local copy ' || i.image_file || ' does not match image_sha256' END
        WHERE i.image_url IS NOT NULL AND (i.image_file IS NULL OR NOT coalesce(c.present, false)
                                           OR c.sha256 IS DISTINCT FROM i.image_sha256)
) AS b
WHERE v.verdict = 'accept'
ORDER BY v.round, v.item_line, b.reason;
