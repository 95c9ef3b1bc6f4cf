-- audit_standards: the client-standard columns per unit from standards.jsonl ({id, <prefix>_rules, <prefix>_result, <prefix>_note}, any one prefix, read by suffix)
--   id: unit id
--   client_rules: the client rules, space-separated
--   client_result: the client-standard result
--   client_note: the note
-- audit_standards_violations: broken standards.jsonl lines: not JSON, not an object, no string id, an unknown unit, keys that are not one prefix's _rules/_result/_note, wrong types, an id twice
--   source: file path
--   line: 1-based line number
--   record_id: unit id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW audit_standards AS
WITH recs AS (
    SELECT line, doc, jstr(doc, '$.id') AS id,
        list_filter(json_keys(doc), lambda k: k <> 'id') AS keys
    FROM jsonl_records WHERE kind = 'standard' AND is_object
),
keyed AS (
    SELECT *, list_filter(keys, lambda k: ends_with(k, '_rules'))[1] AS rules_key,
        list_filter(keys, lambda k: ends_with(k, '_result'))[1] AS result_key,
        list_filter(keys, lambda k: ends_with(k, '_note'))[1] AS note_key
    FROM recs
)
SELECT id,
    CASE json_type(doc -> ('$."' || rules_key || '"'))
        WHEN 'ARRAY' THEN array_to_string(CAST(json_transform(doc -> ('$."' || rules_key || '"'),
            '["VARCHAR"]') AS VARCHAR[]), ' ')
        WHEN 'VARCHAR' THEN doc ->> ('$."' || rules_key || '"') ELSE '' END AS client_rules,
    coalesce(doc ->> ('$."' || result_key || '"'), '') AS client_result,
    coalesce(doc ->> ('$."' || note_key || '"'), '') AS client_note
FROM keyed WHERE id IS NOT NULL;

CREATE OR REPLACE VIEW audit_standards_violations AS
WITH recs AS (SELECT * FROM jsonl_records WHERE kind = 'standard'),
objs AS (
    SELECT source, line, doc, jstr(doc, '$.id') AS id, list_filter(json_keys(doc), lambda k: k <> 'id') AS keys
    FROM recs WHERE is_object
)
SELECT source, line, record_id, field, code, message FROM jsonl_line_violations WHERE kind = 'standard'
UNION ALL
SELECT source, line, NULL, 'id', 'missing_field', 'a standards line needs a string id' FROM objs WHERE id IS NULL
UNION ALL
SELECT source, line, id, 'id', 'unknown_id', 'unit ' || id || ' is not in judgment-units.json'
FROM objs WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM audit_built_units WHERE id IS NOT NULL)
UNION ALL
SELECT source, line, id, NULL, 'invalid_record',
    'keys must be one prefix''s _rules, _result and _note, got ' || array_to_string(keys, ', ')
FROM objs
WHERE len(keys) <> 3 OR len(list_distinct(list_transform(keys, lambda k: regexp_replace(k, '_(rules|result|note)$',
    '')))) <> 1
    OR NOT list_bool_and(list_transform(keys, lambda k: regexp_matches(k, '^.+_(rules|result|note)$')))
    OR len(list_distinct(list_transform(keys, lambda k: regexp_extract(k, '_(rules|result|note)$', 1)))) <> 3
UNION ALL
SELECT source, line, id, k, 'invalid_type', k || ' must be ' || CASE WHEN ends_with(k, '_rules')
    THEN 'a list of strings or a string' ELSE 'a string' END
FROM (SELECT source, line, id, doc, unnest(keys) AS k FROM objs)
WHERE CASE WHEN ends_with(k, '_rules') THEN json_type(doc -> ('$."' || k || '"')) NOT IN ('ARRAY', 'VARCHAR')
           ELSE json_type(doc -> ('$."' || k || '"')) NOT IN ('VARCHAR', 'NULL') END
UNION ALL
SELECT source, line, id, 'id', 'duplicate_id', 'unit ' || id || ' appears on an earlier line'
FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY line) AS nth FROM objs WHERE id IS NOT NULL) WHERE nth > 1;
