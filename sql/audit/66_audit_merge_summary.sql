-- audit_merge_summary: the merge in one row: how many rows, how many a named person ratified, how many no judge drafted, and the audit's status (RATIFIED when every row is, PARTIALLY_RATIFIED when some are, else DRAFT_NOT_RATIFIED)
--   rows: draft rows
--   ratified_rows: rows whose status is RATIFIED
--   missing: rows with no draft judgment
--   status: RATIFIED, PARTIALLY_RATIFIED or DRAFT_NOT_RATIFIED
CREATE OR REPLACE VIEW audit_merge_summary AS
SELECT count(*) AS rows, count(*) FILTER (WHERE status = 'RATIFIED') AS ratified_rows,
    count(*) FILTER (WHERE coalesce(draft_judgment, '') = '') AS missing,
    CASE WHEN count(*) > 0 AND count(*) FILTER (WHERE status = 'RATIFIED') = count(*) THEN 'RATIFIED'
         WHEN count(*) FILTER (WHERE status = 'RATIFIED') > 0 THEN 'PARTIALLY_RATIFIED'
         ELSE 'DRAFT_NOT_RATIFIED' END AS status
FROM audit_draft_rows;
