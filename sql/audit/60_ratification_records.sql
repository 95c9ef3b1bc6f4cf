-- ratification_records: every ledger record, typed, with its computed decision id, timestamp checks and completeness
--   source: ledger file path
--   line: 1-based line number
--   id: unit id
--   scope: wcag (default) or client
--   ratified_by: who decided
--   ratified_judgment: yes, no or unsure (wcag)
--   ratified_client_result: client-standard result (client)
--   ratifier_note: note
--   ratified_utc: when
--   ruling: family ruling
--   unit_sha256: the pin, when given
--   supplied_decision_id: decision_id as written
--   decision_id: the computed decision id
--   supersedes: the decision id it replaces
--   supersession_reason: why
--   fix: the fix the ratifier asks for
--   is_legacy: no pin and no supersession fields
--   date_precision: timestamp, or day for a legacy YYYY-MM-DD date
--   date_valid: whether ratified_utc is a real UTC timestamp ending in Z (or a legacy day)
--   complete: a name, a judgment (or non-blank client result) and a valid date
--   missing: what a draft lacks, as text
--   has_judgment_field: whether the record carries ratified_judgment at all
--   has_client_field: whether the record carries ratified_client_result at all
CREATE OR REPLACE TABLE ratification_records AS
WITH r AS (
    SELECT source, line, jstr(doc, '$.id') AS id, coalesce(nullif(jstr(doc, '$.scope'), ''), 'wcag') AS scope,
        coalesce(jstr(doc, '$.ratified_by'), '') AS ratified_by, coalesce(jstr(doc, '$.ratified_judgment'),
            '') AS ratified_judgment,
        coalesce(jstr(doc, '$.ratified_client_result'), '') AS ratified_client_result,
        coalesce(jstr(doc, '$.ratifier_note'), '') AS ratifier_note, coalesce(jstr(doc, '$.ratified_utc'),
            '') AS ratified_utc,
        coalesce(jstr(doc, '$.ruling'), '') AS ruling, coalesce(jstr(doc, '$.unit_sha256'), '') AS unit_sha256,
        coalesce(jstr(doc, '$.decision_id'), '') AS supplied_decision_id,
        coalesce(jstr(doc, '$.supersedes'), '') AS supersedes, coalesce(jstr(doc, '$.supersession_reason'),
            '') AS supersession_reason,
        coalesce(jstr(doc, '$.fix'), '') AS fix,
        json_type(doc, '$.ratified_judgment') IS NOT NULL AS has_judgment_field,
        json_type(doc, '$.ratified_client_result') IS NOT NULL AS has_client_field
    FROM jsonl_records WHERE kind = 'ratification' AND is_object
),
dated AS (
    SELECT r.*, d.decision_id,
        r.unit_sha256 = '' AND r.supersedes = '' AND r.supersession_reason = ''
            AND r.supplied_decision_id = '' AS is_legacy,
        is_utc_instant(r.ratified_utc) AS is_instant, is_calendar_day(r.ratified_utc) AS is_day
    FROM r LEFT JOIN ledger_digests AS d USING (source, line)
)
SELECT source, line, id, scope, ratified_by, ratified_judgment, ratified_client_result, ratifier_note, ratified_utc,
    ruling, unit_sha256, supplied_decision_id, decision_id, supersedes, supersession_reason, fix, is_legacy,
    CASE WHEN is_day AND is_legacy THEN 'day' WHEN is_instant THEN 'timestamp' END AS date_precision,
    is_instant OR (is_day AND is_legacy) AS date_valid,
    trim(ratified_by) <> '' AND (is_instant OR (is_day AND is_legacy))
        AND CASE scope WHEN 'wcag' THEN ratified_judgment IN ('yes', 'no', 'unsure')
            ELSE trim(ratified_client_result) <> '' END AS complete,
    array_to_string(list_filter([
        CASE WHEN trim(ratified_by) = '' THEN 'ratified_by' END,
        CASE WHEN scope = 'wcag' AND ratified_judgment NOT IN ('yes', 'no', 'unsure') THEN 'ratified_judgment' END,
        CASE WHEN scope = 'client' AND trim(ratified_client_result) = '' THEN 'ratified_client_result' END,
        CASE WHEN NOT (is_instant OR (is_day AND is_legacy)) THEN 'ratified_utc' END], lambda x: x IS NOT NULL),
            ', ') AS missing,
    has_judgment_field, has_client_field
FROM dated;
