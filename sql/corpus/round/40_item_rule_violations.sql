-- item_rule_violations: one row per broken cross-field rule of a round-format corpus item (the rules a field spec cannot say; the rules every profile shares are in shared_item_rule_violations)
--   source: corpus file path
--   line: 1-based line number
--   record_id: item id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW item_rule_violations AS
WITH items AS (SELECT * FROM corpus_items),
exts AS (SELECT list(ext) AS exts FROM corpus_image_types),
passes AS (
    SELECT r.source, r.line, r.record_id AS id, e.key AS pos, e.value AS pass
    FROM jsonl_records AS r, json_each(r.doc, '$.gold_alt_passes') AS e
    WHERE r.kind = 'item' AND r.is_object AND json_type(r.doc, '$.gold_alt_passes') = 'ARRAY'
)
SELECT source, line, id AS record_id, 'image_url' AS field, 'image_url_required' AS code,
       'implementation ' || implementation || ' needs an image_url' AS message
FROM items WHERE types.image_url = 'null'
    AND implementation IN ('img', 'sprite', 'css-background', 'input-image', 'area')
UNION ALL
SELECT source, line, id, 'image_file', 'image_file_mismatch',
       '"' || image_file || '" must be corpus/images/' || coalesce(id, '<id>') || '.<' || array_to_string(exts, '|')
           || '>'
FROM items, exts
WHERE image_file IS NOT NULL
    AND NOT list_contains(list_transform(exts, lambda e: 'corpus/images/' || id || '.' || e), image_file)
UNION ALL
SELECT source, line, id, CASE WHEN image_file IS NULL THEN 'image_file' ELSE 'image_sha256' END, 'image_pair_mismatch',
       'image_file and image_sha256 must both be null or both be set'
FROM items
WHERE types.image_file IN ('string', 'null') AND types.image_sha256 IN ('string', 'null')
    AND (types.image_file = 'null') <> (types.image_sha256 = 'null')
UNION ALL
SELECT source, line, id, 'observed_alt_verdict', 'alt_verdict_mismatch',
       CASE WHEN observed_alt IS NULL THEN 'observed_alt is null, so the verdict must be missing'
            ELSE 'verdict missing needs observed_alt to be null' END
FROM items
WHERE types.observed_alt IN ('string', 'null') AND observed_alt_verdict IS NOT NULL
    AND (observed_alt IS NULL) <> (observed_alt_verdict = 'missing')
UNION ALL
SELECT source, line, id, 'gold_alt', 'redundant_starter',
       '"' || gold_alt || '" starts with a redundant phrase (' || starter || ')'
FROM (SELECT i.source, i.line, i.id, i.gold_alt, lower(ltrim(i.gold_alt)) AS g FROM items AS i
    WHERE i.gold_alt IS NOT NULL) AS i
JOIN corpus_redundant_starters AS s ON starts_with(i.g, s.starter)
WHERE length(i.g) = length(s.starter) OR regexp_matches(substr(i.g, length(s.starter) + 1, 1), '\W')
UNION ALL
SELECT source, line, id, 'gold_alt_passes', 'invalid_value', 'must hold at least one pass'
FROM items WHERE types.gold_alt_passes = 'array' AND pass_count = 0
UNION ALL
SELECT source, line, id, 'gold_alt_passes', 'invalid_value',
       'pass ' || (CAST(pos AS INTEGER) + 1) || ' must be an object with exactly string author, alt and rationale'
FROM passes
WHERE json_type(pass) <> 'OBJECT' OR list_sort(json_keys(pass)) <> ['alt', 'author', 'rationale']
    OR coalesce(json_type(pass, '$.author') <> 'VARCHAR' OR json_type(pass, '$.alt') <> 'VARCHAR'
                OR json_type(pass, '$.rationale') <> 'VARCHAR', true)
UNION ALL
SELECT source, line, id, 'gold_alt', 'gold_alt_not_in_passes',
       'gold_alt "' || gold_alt || '" is not the alt of any pass and no adjudication is set'
FROM items
WHERE gold_alt IS NOT NULL AND pass_count > 0 AND NOT adjudicated
    AND NOT list_contains(list_transform(gold_alt_passes, lambda p: p.alt), gold_alt)
UNION ALL
SELECT source, line, id, 'leaky', 'accepted_leaky', 'an accepted item must not be leaky'
FROM items WHERE status = 'accepted' AND leaky
UNION ALL
SELECT source, line, id, 'gold_alt_passes', 'accepted_without_two_passes',
       'an accepted item needs two agreeing passes or an adjudication; it has ' || pass_count || ' pass(es)'
FROM items WHERE status = 'accepted' AND NOT adjudicated AND pass_count < 2
UNION ALL
SELECT source, line, id, 'gold_alt_passes', 'accepted_disagreeing_passes',
       'an accepted item''s passes disagree and no adjudication is set'
FROM items WHERE status = 'accepted' AND NOT adjudicated AND pass_count >= 2 AND NOT pass_alts_agree
UNION ALL
SELECT i.source, i.line, i.id, 'image_file', 'accepted_without_image_copy',
       CASE WHEN i.image_file IS NULL THEN 'an accepted item with an image_url needs a local copy (run fetch-images)'
            ELSE 'the local copy ' || i.image_file || ' is missing on disk' END
FROM items AS i LEFT JOIN image_copies AS c ON c.path = i.image_file
WHERE i.status = 'accepted' AND i.image_url IS NOT NULL AND (i.image_file IS NULL OR NOT coalesce(c.present, true))
    -- round-v2's validator counts a missing copy as a criterion not yet met and pending work, never a schema error
    AND (SELECT profile FROM jfi_run) IS DISTINCT FROM 'round-v2'
UNION ALL
-- round-v2: a name from the alt is the observed alt; a name from the control's text needs that text. These fire only
-- where the profile's field specs declare accessible_name (round-v1 has no names to check)
SELECT source, line, id, 'accessible_name_source', 'name_source_mismatch',
       CASE WHEN accessible_name_source = 'alt'
           THEN 'accessible_name_source is alt but observed_alt is not a non-empty string equal to accessible_name'
            ELSE 'accessible_name_source is control-text but surrounding_text is empty' END
FROM items
WHERE EXISTS (SELECT 1 FROM field_specs WHERE kind = 'item' AND field = 'accessible_name')
    AND ((accessible_name_source = 'alt' AND NOT coalesce(trim(observed_alt) <> '' AND observed_alt = accessible_name,
        false))
         OR (accessible_name_source = 'control-text' AND coalesce(trim(surrounding_text), '') = ''));
