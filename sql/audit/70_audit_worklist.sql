-- audit_fact_classes: the fact classes a ratifier signs once (a flag that states a fact, not a judgment)
--   fact_class: name of the class
--   pattern: regular expression over flag names
--   meaning: what rows of the class have in common
-- audit_worklist_families: families of rows not yet ratified where one answer settles many: the same name, the same element family (type and CSS path without positions) or the same flag pattern (not for axe-core's findings: they share a family per rule), two or more units, largest first; a unit is in at most one family, the most specific it belongs to (name, then element, then flags)
--   family_id: stable id of the family (kind, type and key hashed)
--   kind: name, flags or element
--   type: unit type
--   key: what the family's rows share
--   units: number of rows
--   unit_ids: the rows
--   judgments: the session drafts in the family, counted
--   shows: what a person sees: up to three of the rows' names (and how many more)
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
    ('raw-URL text', '^link_name_is_url$', 'a link whose name is a URL'),
    ('no accessible name', '^(image|link|field|heading)_no_accessible_name$', 'the browser exposes the element with no accessible name at all')
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
    WHERE type <> 'finding'  -- axe-core's findings are families by rule (their name), never across rules
    UNION ALL
    SELECT 'element', type, regexp_replace(coalesce(selector, ''), ':nth-of-type\(\d+\)', '', 'g'), id, session_draft_judgment, sort_ord
    FROM open_rows WHERE type IN ('link', 'image', 'field') AND coalesce(selector, '') <> '' AND NOT starts_with(selector, '#')
),
candidates AS (  -- every family of two or more, ranked by how specific its question is
    SELECT kind, type, key, list_position(['name', 'element', 'flags'], kind) AS rank, count(*) OVER (PARTITION BY kind, type, key) AS size,
        id, session_draft_judgment, sort_ord
    FROM keyed WHERE key <> ''
    QUALIFY count(*) OVER (PARTITION BY kind, type, key) >= 2
),
chosen AS (  -- each unit joins its most specific family
    SELECT * FROM candidates QUALIFY row_number() OVER (PARTITION BY id ORDER BY rank, size DESC, key) = 1
),
names AS (  -- each family's names in page order, once each
    SELECT c.kind, c.type, c.key, '"' || coalesce(nullif(d.name, ''), '(no name)') || '"' AS shown, min(c.sort_ord) AS first
    FROM chosen AS c JOIN audit_draft_rows AS d USING (id)
    GROUP BY ALL
),
shows AS (
    SELECT kind, type, key, array_to_string(list_slice(list(shown ORDER BY first), 1, 3), ', ')
        || CASE WHEN count(*) > 3 THEN ' and ' || (count(*) - 3) || ' more' ELSE '' END AS shows
    FROM names GROUP BY ALL
)
SELECT 'FAM-' || substr(sha256(c.kind || '|' || c.type || '|' || c.key), 1, 10) AS family_id, c.kind, c.type, c.key, count(*) AS units,
    list(c.id ORDER BY c.sort_ord) AS unit_ids,
    array_to_string(list_sort(list_distinct(list(coalesce(nullif(c.session_draft_judgment, ''), 'unjudged')))), ', ') AS judgments,
    any_value(s.shows) AS shows
FROM chosen AS c JOIN shows AS s USING (kind, type, key)
GROUP BY c.kind, c.type, c.key
HAVING count(*) >= 2
ORDER BY units DESC, c.kind, c.type, c.key;

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
