-- ratification_effective: the decision in force for every scope:id (the last record of its chain), with its state, pin status and precision; the ratifier's fields are shown only for a complete record (a name alone never shows as a ratifier)
--   scope: wcag or client
--   id: unit id
--   line: ledger line of the decision in force
--   ratified_by: who (blank unless the record is complete)
--   ratified_judgment: what (wcag; blank unless complete)
--   ratified_client_result: what (client; blank unless complete)
--   ratifier_note: note (blank unless complete)
--   ratified_utc: when (blank unless complete)
--   ruling: family ruling (blank unless complete)
--   fix: the fix the ratifier asks for (blank unless complete)
--   state: RATIFIED when complete, else DRAFT (an incomplete return or a withdrawal)
--   decision_id: its decision id
--   unit_sha256: its pin
--   pin_status: pinned, or legacy_unpinned for a record without a pin
--   date_precision: timestamp, or day for a legacy date
--   diagnostic: what a draft lacks, retries and supersessions on the chain
CREATE OR REPLACE TABLE ratification_effective AS
WITH chains AS (
    SELECT scope, id, count(*) FILTER (WHERE change = 'retry') AS retries,
        count(*) FILTER (WHERE change IN ('supersession', 'withdrawal')) AS supersessions, max(line) AS last_line
    FROM ratification_chain GROUP BY scope, id
)
SELECT r.scope, r.id, r.line,
    CASE WHEN r.complete THEN r.ratified_by ELSE '' END AS ratified_by,
    CASE WHEN r.complete THEN r.ratified_judgment ELSE '' END AS ratified_judgment,
    CASE WHEN r.complete THEN r.ratified_client_result ELSE '' END AS ratified_client_result,
    CASE WHEN r.complete THEN r.ratifier_note ELSE '' END AS ratifier_note,
    CASE WHEN r.complete THEN r.ratified_utc ELSE '' END AS ratified_utc,
    CASE WHEN r.complete THEN r.ruling ELSE '' END AS ruling, CASE WHEN r.complete THEN r.fix ELSE '' END AS fix, CASE
        WHEN r.complete THEN 'RATIFIED' ELSE 'DRAFT' END AS state, r.decision_id, r.unit_sha256,
    CASE WHEN r.unit_sha256 = '' THEN 'legacy_unpinned' ELSE 'pinned' END AS pin_status,
    coalesce(r.date_precision, '') AS date_precision,
    array_to_string(list_filter([
        CASE WHEN NOT r.complete THEN 'draft: missing ' || r.missing END,
        CASE WHEN c.retries > 0 THEN c.retries || ' identical retr' || CASE WHEN c.retries = 1 THEN 'y'
            ELSE 'ies' END END,
        CASE WHEN c.supersessions > 0 THEN 'supersedes ' || c.supersessions || ' earlier decision(s)' END],
        lambda x: x IS NOT NULL), '; ') AS diagnostic
FROM chains AS c JOIN ratification_records AS r ON r.scope = c.scope AND r.id = c.id AND r.line = c.last_line;
