-- audit_fact_classes: the fact classes a ratifier signs once (a flag that states a fact, not a judgment)
--   fact_class: name of the class
--   pattern: regular expression over flag names
--   meaning: what rows of the class have in common
-- audit_worklist_families: families of rows not yet ratified where one answer settles many: the same name, the same flag pattern, or the same element family (type and CSS path without positions), two or more units, largest first
--   family_id: stable id of the family (kind, type and key hashed)
--   kind: name, flags or element
--   type: unit type
--   key: what the family's rows share
--   units: number of rows
--   unit_ids: the rows
--   judgments: the session drafts in the family, counted
-- audit_worklist_rows: rows that need a look: unsure, or a no with no fact class behind it
--   id: unit id
--   type: unit type
--   product: product
--   name: name
--   session_draft_judgment: the session draft
--   reason: unsure, or no-without-fact-class
--   rationale: the judge's rationale
-- audit_worklist_facts: fact classes to sign once, with their rows not yet ratified
--   fact_class: the class
--   meaning: what its rows share
--   units: number of rows
--   unit_ids: the rows
CREATE OR REPLACE TABLE audit_fact_classes AS
SELECT * FROM (VALUES
    ('missing alt attribute', '^img_missing_alt_attr$', 'an img without an alt attribute'),
    ('empty link name', '^link_empty_name$', 'a link with no accessible name'),
    ('unlabeled field', '^field_unlabeled_.+$', 'a form field with no label'),
    ('raw-URL text', '^link_name_is_url$', 'a link whose name is a URL')
) AS t(fact_class, pattern, meaning);

CREATE OR REPLACE VIEW audit_worklist_families AS
WITH open_rows AS (
    SELECT d.*, coalesce(x.pattern, '') AS flag_pattern FROM audit_draft_rows AS d LEFT JOIN audit_decisive_flags AS x USING (id)
    WHERE d.status <> 'RATIFIED'
),
keyed AS (
    SELECT 'name' AS kind, type, norm_text(name) AS key, id, session_draft_judgment, sort_ord FROM open_rows WHERE norm_text(name) <> ''
    UNION ALL
    SELECT 'flags', type, flag_pattern, id, session_draft_judgment, sort_ord FROM open_rows
    UNION ALL
    SELECT 'element', type, regexp_replace(coalesce(selector, ''), ':nth-of-type\(\d+\)', '', 'g'), id, session_draft_judgment, sort_ord
    FROM open_rows WHERE type IN ('link', 'image', 'field') AND coalesce(selector, '') <> '' AND NOT starts_with(selector, '#')
)
SELECT 'FAM-' || substr(sha256(kind || '|' || type || '|' || key), 1, 10) AS family_id, kind, type, key, count(*) AS units,
    list(id ORDER BY sort_ord) AS unit_ids,
    array_to_string(list_sort(list_distinct(list(coalesce(nullif(session_draft_judgment, ''), 'unjudged')))), ', ') AS judgments
FROM keyed
WHERE key <> ''
GROUP BY kind, type, key
HAVING count(*) >= 2
ORDER BY units DESC, kind, type, key;

CREATE OR REPLACE VIEW audit_worklist_rows AS
WITH facts AS (
    SELECT DISTINCT u.id FROM (SELECT id, unnest(flags) AS f FROM audit_built_units) AS u
    JOIN audit_fact_classes AS c ON regexp_full_match(u.f, c.pattern)
)
SELECT d.id, d.type, d.product, d.name, d.session_draft_judgment,
    CASE WHEN d.session_draft_judgment = 'unsure' THEN 'unsure' ELSE 'no-without-fact-class' END AS reason, d.rationale
FROM audit_draft_rows AS d
WHERE d.status <> 'RATIFIED'
    AND (d.session_draft_judgment = 'unsure' OR (d.session_draft_judgment = 'no' AND d.id NOT IN (SELECT id FROM facts)))
ORDER BY d.sort_ord;

CREATE OR REPLACE VIEW audit_worklist_facts AS
SELECT c.fact_class, c.meaning, count(DISTINCT d.id) AS units, list(DISTINCT d.id ORDER BY d.id) AS unit_ids
FROM audit_fact_classes AS c
JOIN (SELECT id, unnest(flags) AS f FROM audit_built_units) AS u ON regexp_full_match(u.f, c.pattern)
JOIN audit_draft_rows AS d ON d.id = u.id AND d.status <> 'RATIFIED'
GROUP BY c.fact_class, c.meaning
ORDER BY units DESC, c.fact_class;
