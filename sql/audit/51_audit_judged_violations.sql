-- audit_judged_violations: problems in returned judge batches and spot checks beyond their field specs: word limits, a fix on a yes, ids not in the batch, ids judged twice, batch lines left unjudged, overturns without a judgment
--   source: file path
--   line: 1-based line number (the batch line for an unjudged unit)
--   record_id: unit id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW audit_judged_violations AS
WITH judged_files AS (  -- each judged file with the name of the batch it answers
    SELECT source, regexp_replace(regexp_extract(source, '[^/]+$'), '\.judged\.jsonl$', '.jsonl') AS batch
    FROM raw_files WHERE kind = 'judged' AND present
),
judged AS (  -- a line's batch is its file's (named once per file, not once per line)
    SELECT j.source, j.line, f.batch, j.id, j.judgment, j.rationale, j.fix
    FROM audit_judged_lines AS j JOIN judged_files AS f USING (source)
),
spots AS (
    SELECT source, line, jstr(doc, '$.id') AS id, jstr(doc, '$.spot_check') AS spot_check, jstr(doc,
        '$.judgment') AS judgment
    FROM jsonl_records WHERE kind = 'spot_check' AND is_object
),
words AS (  -- words are counted only in a text long enough to pass its limit (26 words take 51 characters at least)
    SELECT *, CASE WHEN length(trim(coalesce(rationale, ''))) <= 50 THEN 0 ELSE len(string_split_regex(trim(rationale),
        '\s+')) END AS rationale_words,
        CASE WHEN length(trim(coalesce(fix, ''))) <= 40 THEN 0 ELSE len(string_split_regex(trim(fix),
            '\s+')) END AS fix_words,
        trim(coalesce(fix, '')) <> '' AS has_fix
    FROM judged)
SELECT source, line, id AS record_id, 'rationale' AS field, 'too_long' AS code,
       'rationale has ' || rationale_words || ' words; at most 25' AS message
FROM words WHERE rationale_words > 25
UNION ALL
SELECT source, line, id, 'fix', 'too_long', 'fix has ' || fix_words || ' words; at most 20' FROM words
    WHERE fix_words > 20
UNION ALL
SELECT source, line, id, 'fix', 'fix_on_yes', 'a yes needs no fix; leave fix empty' FROM words WHERE judgment = 'yes'
    AND has_fix
UNION ALL
SELECT j.source, j.line, j.id, 'id', 'duplicate_id', 'unit ' || j.id || ' is judged more than once in this file'
FROM judged AS j  -- every line of a unit after its first in the file (the units judged twice found by a grouping,
    -- not a window numbering all 260,000 lines of 10,000 views)
JOIN (SELECT source, id, min(line) AS first FROM judged WHERE id IS NOT NULL GROUP BY source, id HAVING count(*) > 1)
    AS d ON d.source = j.source AND d.id = j.id
WHERE j.line > d.first
UNION ALL
-- each judged id against the ids of its batch, in one join: one the batch lacks is unknown, a batch line no line of
-- the file judges is missing
SELECT coalesce(j.source, f.source), coalesce(j.line, b.line), coalesce(j.id, b.id), 'id',
    CASE WHEN b.id IS NULL THEN 'unknown_id' ELSE 'missing_judgment' END,
    CASE WHEN b.id IS NULL THEN 'unit ' || j.id || ' is not in batch ' || j.batch
        ELSE 'batch line ' || b.line || ' (' || b.id || ') has no judged line' END
FROM (SELECT * FROM judged WHERE id IS NOT NULL) AS j
FULL JOIN (judged_files AS f JOIN audit_batch_lines AS b ON b.batch = f.batch) ON j.source = f.source AND j.id = b.id
WHERE j.id IS NULL OR b.id IS NULL
UNION ALL
SELECT f.source, 0, NULL, NULL, 'unknown_batch', 'no batch ' || f.batch || ' was handed out'
FROM judged_files AS f WHERE NOT EXISTS (SELECT 1 FROM audit_batch_lines AS b WHERE b.batch = f.batch)
UNION ALL
SELECT source, line, id, 'id', 'unknown_id', 'unit ' || id || ' is not in judgment-units.json'
FROM spots WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM audit_built_units WHERE id IS NOT NULL)
UNION ALL
SELECT source, line, id, 'judgment', 'missing_field', 'an overturn must give the judgment that replaces the draft'
FROM spots WHERE spot_check = 'overturn' AND judgment IS NULL
UNION ALL
SELECT source, line, id, 'id', 'duplicate_id', 'unit ' || id || ' is spot-checked more than once'
FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY line) AS nth FROM spots WHERE id IS NOT NULL) WHERE nth > 1;
