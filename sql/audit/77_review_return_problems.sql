-- review_returned: the decisions of a returned review, as `jfi audit review apply` read them (the JSON template's decisions, or review-tasks' rows of a CSV or workbook, cells unguarded), for the views below; empty outside that command
--   n: the decision's number in the return
--   place: where it is, as messages name it (file:row, or file: decision N)
--   doc: the decision as JSON (any JSON value: what is not an object is refused)
-- review_return_tasks: the rows the bundle's tasks settle (bundle.json, pinned at export): a task is a decision, and a family's or fact class's answer is each of its rows' answer
--   id: unit id
--   unit_sha256: the unit's digest at export
--   base_decision_id: the decision in force at export ('' when none)
--   ruling: the decision the row's answer comes from (its family or fact class; '' for a row that is a decision of its own)
-- review_return_units: the digest of each task's unit as built now (no row: the unit is gone)
--   id: unit id
--   unit_sha256: sha256 of the canonical unit
-- review_return_context: the bundle's life: a decision is stamped from its export to now, with a day's slack either side (clocks and time zones)
--   created_utc: when the bundle was exported (UTC)
--   now_utc: now (UTC)
-- review_return_names: the name each return field goes by in the returned file
--   field: a return field (ratified_by, ...)
--   name: its name in the file (a sheet's column: reviewer for ratified_by; the field itself in JSON)
-- review_return_digests: the decision id of each candidate record (review_return_records), computed as the ledger's are
--   n: the decision's number in the return
--   decision_id: sha256 of the canonical record
-- review_return_rows: each returned decision, typed, with the first thing that refuses it before the ledger is read
--   n: the decision's number in the return
--   place: where it is in the returned file
--   id: the unit id it answers (NULL when not a string)
--   pinned: the unit's digest the bundle pinned (NULL: not a task of the bundle)
--   base_decision_id: the decision in force at export ('' when none)
--   ratified_by: as returned ('' when absent)
--   ratified_judgment: as returned ('' when absent)
--   ratifier_note: as returned ('' when absent)
--   ratified_utc: as returned ('' when absent)
--   supersession_reason: as returned ('' when absent)
--   fix: as returned ('' when absent)
--   by_bare: ratified_by without the white space around it (every Unicode space: what a person sees as blank)
--   judgment: ratified_judgment without the white space around it, in lower case (`Yes`, `no ` and `NO` say what they say)
--   utc: ratified_utc without the white space around it
--   reason_bare: supersession_reason without the white space around it
--   fix_bare: fix without the white space around it
--   reason_name: supersession_reason's name in the file
--   problem: unknown_task, duplicate_decision, unknown_field, invalid_type, unit_revision_mismatch or incomplete_decision; NULL when none
--   message: the problem's code and words, naming the field (as the file calls it), what was found and what was expected
--   pending: every field but id is blank (a task not decided yet)
-- review_return_records: the ledger records the return would add, before the ledger's own decisions are compared
--   n: the decision's number in the return
--   id: unit id
--   scope: wcag (a review return carries wcag decisions only)
--   ratified_by: who decided
--   ratified_judgment: yes, no or unsure
--   ratifier_note: what they saw, as written
--   ratified_utc: when
--   ruling: the family or fact class the answer fans out from ('' for a row answered alone)
--   unit_sha256: the unit's digest the bundle pinned
--   fix: the fix asked for (NULL when none)
-- review_return_decided: each candidate record beside the decision in force for its unit now (ratification_effective)
--   n: the decision's number in the return
--   place: where it is in the returned file
--   id: unit id
--   ratified_judgment: as returned
--   supersession_reason: as returned
--   reason_bare: supersession_reason without the white space around it
--   reason_name: supersession_reason's name in the file
--   base_decision_id: the decision in force at export ('' when none)
--   decision_id: the candidate record's decision id
--   now_decision_id: the decision in force now (NULL when none)
--   now_by: who made it
--   now_judgment: what it says
-- review_return_problems: one row per problem of a returned decision, in the return's order (a family's or fact class's answer refused for what it says is one row, naming the decision and the rows it settles, not one row per row); any row refuses the whole return and the ledger stays as it is
--   n: the decision's number in the return
--   place: where it is in the returned file
--   message: the problem's code and words (concurrent_decision and missing_reason beside those of review_return_rows)
-- review_return_new: the records to append, in the return's order: identical retries left out, a replacement pinned to the decision it replaces
--   n: the decision's number in the return
--   id: unit id
--   scope: wcag
--   ratified_by: who decided
--   ratified_judgment: yes, no or unsure
--   ratifier_note: what they saw
--   ratified_utc: when
--   ruling: the family or fact class ('' for a row answered alone)
--   unit_sha256: the unit's digest the bundle pinned
--   fix: the fix asked for (NULL when none)
--   supersedes: the decision it replaces (NULL when none)
--   supersession_reason: why (NULL when it replaces none)
--   decision_id: its decision id
CREATE TEMP TABLE IF NOT EXISTS review_returned (n INTEGER, place VARCHAR, doc JSON);
CREATE TEMP TABLE IF NOT EXISTS review_return_tasks (id VARCHAR, unit_sha256 VARCHAR, base_decision_id VARCHAR,
    ruling VARCHAR);
CREATE TEMP TABLE IF NOT EXISTS review_return_units (id VARCHAR, unit_sha256 VARCHAR);
CREATE TEMP TABLE IF NOT EXISTS review_return_context (created_utc VARCHAR, now_utc VARCHAR);
CREATE TEMP TABLE IF NOT EXISTS review_return_names (field VARCHAR, name VARCHAR);
CREATE TEMP TABLE IF NOT EXISTS review_return_digests (n INTEGER, decision_id VARCHAR);

CREATE OR REPLACE TEMP VIEW review_return_rows AS
WITH r AS (
    SELECT n, place, doc, json_type(doc) = 'OBJECT' AS is_object,
        CASE WHEN json_type(doc) = 'OBJECT' THEN jstr(doc, '$.id') END AS id
    FROM review_returned
),
known AS (
    SELECT r.*, t.id IS NOT NULL AS is_task, t.unit_sha256 AS pinned, t.base_decision_id, t.ruling,
        first(place) OVER (PARTITION BY r.id ORDER BY n) AS first_place,
        row_number() OVER (PARTITION BY r.id ORDER BY n) AS nth,
        CASE WHEN is_object THEN list_sort(list_filter(json_keys(doc), lambda k: k NOT IN
            ('id', 'ratified_by', 'ratified_judgment', 'ratifier_note', 'ratified_utc', 'supersession_reason',
                'fix'))) END AS extra,
        is_object AND coalesce(json_type(doc, '$.id'), 'VARCHAR') = 'VARCHAR'
            AND coalesce(json_type(doc, '$.ratified_by'), 'VARCHAR') = 'VARCHAR'
            AND coalesce(json_type(doc, '$.ratified_judgment'), 'VARCHAR') = 'VARCHAR'
            AND coalesce(json_type(doc, '$.ratifier_note'), 'VARCHAR') = 'VARCHAR'
            AND coalesce(json_type(doc, '$.ratified_utc'), 'VARCHAR') = 'VARCHAR'
            AND coalesce(json_type(doc, '$.supersession_reason'), 'VARCHAR') = 'VARCHAR'
            AND coalesce(json_type(doc, '$.fix'), 'VARCHAR') = 'VARCHAR' AS strings
    FROM r LEFT JOIN review_return_tasks AS t ON t.id = r.id
),
v AS (
    SELECT k.*, coalesce(doc ->> '$.ratified_by', '') AS ratified_by, coalesce(doc ->> '$.ratified_judgment',
        '') AS ratified_judgment,
        coalesce(doc ->> '$.ratifier_note', '') AS ratifier_note, coalesce(doc ->> '$.ratified_utc',
            '') AS ratified_utc,
        coalesce(doc ->> '$.supersession_reason', '') AS supersession_reason, coalesce(doc ->> '$.fix', '') AS fix,
        u.unit_sha256 AS built
    FROM known AS k LEFT JOIN review_return_units AS u ON u.id = k.id
),
bare AS (  -- each value without the white space around it (every Unicode space: what a person sees as blank)
    SELECT v.*,
        regexp_replace(ratified_by, '^[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+|[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+$', '',
            'g') AS by_bare,
        regexp_replace(ratified_judgment, '^[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+|[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+$',
            '', 'g') AS judgment_bare,
        regexp_replace(ratifier_note, '^[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+|[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+$', '',
            'g') AS note_bare,
        regexp_replace(ratified_utc, '^[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+|[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+$', '',
            'g') AS utc,
        regexp_replace(supersession_reason, '^[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+|[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+$',
            '', 'g') AS reason_bare,
        regexp_replace(fix, '^[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+|[\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}]+$', '',
            'g') AS fix_bare
    FROM v
),
checked AS (
    SELECT b.*, lower(judgment_bare) AS judgment,
        by_bare = '' AND judgment_bare = '' AND note_bare = '' AND utc = '' AND reason_bare = ''
            AND fix_bare = '' AS blank,
        is_utc_instant(utc) AS is_instant,
        try_cast(rtrim(utc, 'Z') AS TIMESTAMP) <= try_cast(rtrim(c.now_utc, 'Z') AS TIMESTAMP) + INTERVAL 1 DAY
            AND (c.created_utc IS NULL OR try_cast(rtrim(utc, 'Z') AS TIMESTAMP)
                >= try_cast(rtrim(c.created_utc, 'Z') AS TIMESTAMP) - INTERVAL 1 DAY) AS in_bundle_life,
        c.created_utc,
        (SELECT max(name) FROM review_return_names WHERE field = 'ratified_by') AS by_name,
        (SELECT max(name) FROM review_return_names WHERE field = 'ratified_judgment') AS judgment_name,
        (SELECT max(name) FROM review_return_names WHERE field = 'ratifier_note') AS note_name,
        (SELECT max(name) FROM review_return_names WHERE field = 'ratified_utc') AS utc_name,
        (SELECT max(name) FROM review_return_names WHERE field = 'supersession_reason') AS reason_name
    FROM bare AS b LEFT JOIN review_return_context AS c ON true
),
wrong AS (  -- what an incomplete decision lacks, each named as the file names it
    SELECT c.*, list_filter([
        CASE WHEN by_bare = '' THEN by_name || ': found nothing, expected your name' END,
        CASE WHEN note_bare = '' AND judgment <> 'yes' THEN note_name
            || ': found nothing, expected what you saw (a yes may go without)' END,
        CASE WHEN by_bare <> '' AND NOT regexp_matches(ratified_by, '[\pL\p{Nl}\p{No}]')
            THEN by_name || ': found ' || CAST(to_json(ratified_by) AS VARCHAR)
                || ', expected a person''s name (a number cell is not a name)' END,
        CASE WHEN judgment NOT IN ('yes', 'no', 'unsure') THEN judgment_name || ': found '
            || CASE WHEN judgment_bare = '' THEN 'nothing' ELSE CAST(to_json(ratified_judgment) AS VARCHAR) END
                || ', expected yes, no or unsure' END,
        CASE WHEN NOT is_instant THEN utc_name || ': found '
                || CASE WHEN utc = '' THEN 'nothing' ELSE CAST(to_json(ratified_utc) AS VARCHAR) END
                    || ', expected a UTC time such as 2026-12-01T10:00:00Z'
             WHEN NOT coalesce(in_bundle_life, false) THEN utc_name || ': found '
                 || CAST(to_json(ratified_utc) AS VARCHAR)
                || ', expected a time between the bundle''s export (' || coalesce(created_utc, 'None')
                    || ') and now' END],
        lambda x: x IS NOT NULL) AS wrong,
        -- what a decision's problem names: a family's or fact class's answer by its own id and the rows it settles
        CASE WHEN coalesce(c.ruling, '') <> '' THEN c.ruling || ' (' || count(*) OVER (PARTITION BY c.place, c.ruling)
            || ' rows)' ELSE c.id END AS who
    FROM checked AS c
)
SELECT n, place, id, pinned, base_decision_id, ratified_by, ratified_judgment, ratifier_note, ratified_utc,
    supersession_reason, fix, by_bare, judgment, utc, reason_bare, fix_bare, reason_name,
    CASE WHEN NOT is_task THEN 'unknown_task'
         WHEN nth > 1 THEN 'duplicate_decision'
         WHEN len(extra) > 0 THEN 'unknown_field'
         WHEN NOT strings THEN 'invalid_type'
         WHEN blank THEN NULL
         WHEN built IS DISTINCT FROM pinned THEN 'unit_revision_mismatch'
         WHEN len(wrong) > 0 THEN 'incomplete_decision' END AS problem,
    CASE WHEN NOT is_task THEN 'unknown_task: '
            || coalesce(id, CASE WHEN is_object THEN coalesce(CAST(doc -> '$.id' AS VARCHAR), 'None')
                ELSE CAST(doc AS VARCHAR) END)
            || ' is not a task of this bundle'
         WHEN nth > 1 THEN 'duplicate_decision: ' || id || ' is answered twice (also ' || first_place || ')'
         WHEN len(extra) > 0 THEN 'unknown_field: ' || array_to_string(extra, ', ')
             || ' (a review return carries wcag decisions only)'
         WHEN NOT strings THEN 'invalid_type: every field is a string'
         WHEN blank THEN NULL
         WHEN built IS DISTINCT FROM pinned THEN 'unit_revision_mismatch: ' || id || ' changed since export'
         WHEN len(wrong) > 0 THEN split_part(wrong[1], ':', 1) || ': incomplete_decision: ' || who || ': '
             || array_to_string(wrong, '; ')
    END AS message,
    is_task AND nth = 1 AND len(extra) = 0 AND strings AND blank AS pending
FROM wrong;

CREATE OR REPLACE TEMP VIEW review_return_records AS
SELECT r.n, r.id, 'wcag' AS scope, r.by_bare AS ratified_by, r.judgment AS ratified_judgment, r.ratifier_note,
    r.utc AS ratified_utc, coalesce(t.ruling, '') AS ruling, r.pinned AS unit_sha256, nullif(r.fix_bare, '') AS fix
FROM review_return_rows AS r LEFT JOIN review_return_tasks AS t USING (id)
WHERE r.problem IS NULL AND NOT r.pending;

CREATE OR REPLACE TEMP VIEW review_return_decided AS
SELECT r.n, r.place, r.id, r.ratified_judgment, r.supersession_reason, r.reason_bare, r.reason_name, r.base_decision_id,
    d.decision_id,
    e.decision_id AS now_decision_id, e.ratified_by AS now_by, e.ratified_judgment AS now_judgment
FROM review_return_rows AS r JOIN review_return_digests AS d USING (n)
LEFT JOIN (SELECT * FROM ratification_effective WHERE scope = 'wcag') AS e ON e.id = r.id
WHERE r.problem IS NULL AND NOT r.pending;

CREATE OR REPLACE TEMP VIEW review_return_problems AS
SELECT min(n) AS n, place, message FROM review_return_rows WHERE problem IS NOT NULL GROUP BY place, message
UNION ALL
SELECT n, place, CASE
    WHEN coalesce(now_decision_id, '') <> base_decision_id THEN 'concurrent_decision: ' || id
        || ' was decided meanwhile ('
        || CASE WHEN now_decision_id IS NULL THEN 'withdrawn: ' ELSE now_by || ': ' || now_judgment END
        || '); this return says ' || ratified_judgment || ' — both are kept: the ledger as it is, the return as sent'
    ELSE reason_name || ': missing_reason: ' || id || ' replaces ' || base_decision_id
        || ' and needs a supersession_reason' END
FROM review_return_decided
WHERE decision_id IS DISTINCT FROM now_decision_id
    AND (coalesce(now_decision_id, '') <> base_decision_id OR (base_decision_id <> '' AND reason_bare = ''))
ORDER BY n;

CREATE OR REPLACE TEMP VIEW review_return_new AS
SELECT r.n, r.id, r.scope, r.ratified_by, r.ratified_judgment, r.ratifier_note, r.ratified_utc, r.ruling, r.unit_sha256,
    r.fix, nullif(d.base_decision_id, '') AS supersedes,
    CASE WHEN d.base_decision_id <> '' THEN d.supersession_reason END AS supersession_reason, d.decision_id
FROM review_return_records AS r JOIN review_return_decided AS d USING (n)
WHERE d.decision_id IS DISTINCT FROM d.now_decision_id
ORDER BY r.n;
