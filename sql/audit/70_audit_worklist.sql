-- audit_fact_classes: the fact classes a ratifier signs once (a flag that states a fact, not a judgment)
--   fact_class: name of the class
--   pattern: regular expression over flag names (the flags whose files name the class)
--   meaning: what rows of the class have in common
-- audit_worklist_families: families of rows not yet ratified where one answer settles many, recognised by structure (the audit_family_* rules, one file per pattern: in-page links, links named after their destination, per-item links, chrome, container shapes, heading levels, title templates, flag patterns, names), two or more rows of one session draft (yes, no, unsure or none), largest first; a row is in at most one family: the lowest rank it belongs to, then the largest, among those the others leave two or more
--   family_id: stable id of the family (pattern and key hashed)
--   kind: the pattern (in_page_links, destination_links, item_links, chrome_links, shapes, heading_levels, title_templates, flags, names)
--   type: unit type
--   key: what the family's rows share
--   units: number of rows
--   unit_ids: the rows
--   judgments: the session drafts in the family, counted
--   shows: what a person sees: up to three of the rows' names (and how many more)
--   question: the family's one question
-- audit_worklist_rows: rows that need a look: drafted or signed unsure (a signed unsure settles nothing), or a no with no fact class behind it
--   id: unit id
--   type: unit type
--   product: product
--   name: name
--   session_draft_judgment: the session draft
--   reason: unsure, ratified-unsure, or no-without-fact-class
--   rationale: the judge's rationale
-- audit_worklist_facts: fact classes to sign once, with their rows not yet ratified
--   fact_class: the class
--   meaning: what its rows share
--   units: number of rows
--   unit_ids: the rows
CREATE OR REPLACE TABLE audit_fact_classes AS
SELECT c.fact_class, '^(' || string_agg(DISTINCT substr(r.pattern, 2, length(r.pattern) - 2),
    '|' ORDER BY substr(r.pattern, 2, length(r.pattern) - 2)) || ')$' AS pattern,
    c.meaning
FROM (VALUES
    ('missing alt attribute', 'an img without an alt attribute'),
    ('empty link name', 'a link with no accessible name'),
    ('unlabeled field', 'a form field with no label'),
    ('raw-URL text', 'a link whose name is a URL'),
    ('no accessible name', 'the browser exposes the element with no accessible name at all')
) AS c(fact_class, meaning)
JOIN audit_flag_rules AS r USING (fact_class)
GROUP BY c.fact_class, c.meaning;

CREATE OR REPLACE VIEW audit_worklist_families AS
WITH candidates AS (  -- every structural family a row belongs to (one rule file per pattern, audit_family_*)
    SELECT * FROM audit_family_in_page_links
    UNION ALL SELECT * FROM audit_family_destination_links
    UNION ALL SELECT * FROM audit_family_item_links
    UNION ALL SELECT * FROM audit_family_chrome_links
    UNION ALL SELECT * FROM audit_family_shapes
    UNION ALL SELECT * FROM audit_family_heading_levels
    UNION ALL SELECT * FROM audit_family_title_templates
    UNION ALL SELECT * FROM audit_family_flags
    UNION ALL SELECT * FROM audit_family_names
),
drafted AS (  -- rows drafted yes and rows drafted no are never one family: a family is one answer
    SELECT c.* REPLACE (c.key || CASE r.draft WHEN 'yes' THEN ' · drafted yes' WHEN 'no' THEN ' · drafted no'
                                              WHEN 'unsure' THEN ' · drafted unsure' ELSE '' END AS key)
    FROM candidates AS c JOIN audit_family_rows AS r USING (id)
),
sizes AS (  -- the families of two or more, numbered in the order a row picks among its own: lowest rank, then the
    -- largest, then by pattern and key (a family's question follows from its pattern and key)
    SELECT pattern, key, any_value(question) AS question,
        row_number() OVER (ORDER BY min(rank), count(*) DESC, pattern, key) AS pick
    FROM drafted GROUP BY pattern, key HAVING count(*) >= 2
),
sized AS (SELECT d.id, s.pick FROM drafted AS d JOIN sizes AS s USING (pattern, key)),
first_pick AS (SELECT id, min(pick) AS pick FROM sized GROUP BY id),  -- each row's first family
left_alone AS (  -- families the first pick left with one row: their rows choose again without them
    SELECT pick FROM first_pick GROUP BY pick HAVING count(*) < 2
),
chosen AS (SELECT id, min(pick) AS pick FROM sized ANTI JOIN left_alone USING (pick) GROUP BY id),
members AS (
    SELECT s.pattern, s.key, s.question, c.id, r.type, r.draft, r.sort_ord
    FROM chosen AS c JOIN sizes AS s USING (pick) JOIN audit_family_rows AS r USING (id)
),
families AS (SELECT pattern, key FROM members GROUP BY ALL HAVING count(*) >= 2),
names AS (  -- each family's names in page order, once each
    SELECT m.pattern, m.key, '"' || coalesce(nullif(d.name, ''), '(no name)') || '"' AS shown, min(m.sort_ord) AS first
    FROM members AS m SEMI JOIN families AS f USING (pattern, key) JOIN audit_built_units AS d USING (id)
    GROUP BY ALL
),
shows AS (
    SELECT pattern, key, array_to_string(list_slice(list(shown ORDER BY first), 1, 3), ', ')
        || CASE WHEN count(*) > 3 THEN ' and ' || (count(*) - 3) || ' more' ELSE '' END AS shows
    FROM names GROUP BY ALL
)
SELECT 'FAM-' || substr(sha256(m.pattern || '|' || m.key), 1, 10) AS family_id, m.pattern AS kind,
    any_value(m.type) AS type, m.key,
    count(*) AS units, list(m.id ORDER BY m.sort_ord) AS unit_ids,
    array_to_string(list_sort(list_distinct(list(coalesce(nullif(m.draft, ''), 'unjudged')))), ', ') AS judgments,
    any_value(s.shows) AS shows, any_value(m.question) AS question
FROM members AS m JOIN shows AS s USING (pattern, key)  -- shows: the families of two or more only
GROUP BY m.pattern, m.key
ORDER BY units DESC, m.pattern, m.key;

CREATE OR REPLACE VIEW audit_worklist_rows AS
WITH facts AS (
    SELECT DISTINCT u.id FROM (SELECT id, unnest(flags) AS f FROM audit_built_units) AS u
    JOIN audit_fact_classes AS c ON regexp_full_match(u.f, c.pattern)
)
SELECT d.id, d.type, d.product, d.name, d.session_draft_judgment,
    CASE WHEN d.ratified_judgment = 'unsure' THEN 'ratified-unsure' WHEN d.session_draft_judgment = 'unsure'
        THEN 'unsure'
         ELSE 'no-without-fact-class' END AS reason, d.rationale
FROM audit_draft_rows AS d
WHERE d.status <> 'RATIFIED'
    AND (d.session_draft_judgment = 'unsure' OR d.ratified_judgment = 'unsure' OR (d.session_draft_judgment = 'no'
        AND d.id NOT IN (SELECT id FROM facts)))
ORDER BY d.sort_ord;

CREATE OR REPLACE VIEW audit_worklist_facts AS
SELECT c.fact_class, c.meaning, count(DISTINCT d.id) AS units, list(DISTINCT d.id ORDER BY d.id) AS unit_ids
FROM audit_fact_classes AS c
JOIN (SELECT id, unnest(flags) AS f FROM audit_built_units) AS u ON regexp_full_match(u.f, c.pattern)
JOIN audit_draft_rows AS d ON d.id = u.id AND d.status <> 'RATIFIED'
GROUP BY c.fact_class, c.meaning
ORDER BY units DESC, c.fact_class;
