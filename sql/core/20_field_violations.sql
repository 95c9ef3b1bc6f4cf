-- field_violations: one row per broken generic field rule (from field_specs) in any JSONL record kind that has specs
--   kind: record kind
--   source: file path
--   line: 1-based line number
--   record_id: the record's id or item_id
--   field: the field at fault (NULL for a line that is not an object)
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW field_violations AS
WITH checked AS (SELECT DISTINCT kind FROM field_specs),
recs AS (
    SELECT r.kind, r.source, r.line, r.record_id, r.is_object, CASE WHEN r.is_object THEN json_keys(r.doc) END AS keys
    FROM jsonl_records AS r SEMI JOIN checked USING (kind)
),
required AS (SELECT kind, list(field ORDER BY field) AS fields FROM field_specs WHERE required GROUP BY kind),
vals AS MATERIALIZED (SELECT v.* EXCLUDE (value) FROM jsonl_values AS v SEMI JOIN checked USING (kind)),
spec_vals AS MATERIALIZED (
    SELECT v.*, s.required, s.types, s.allowed, s.pattern, s.format, s.min_len, s.max_len, s.min_int, s.max_int
    FROM vals AS v JOIN field_specs AS s USING (kind, field)
    WHERE list_contains(s.types, v.jtype)
)
SELECT l.* FROM jsonl_line_violations AS l SEMI JOIN checked USING (kind)
UNION ALL
SELECT v.kind, v.source, v.line, v.record_id, v.field, 'unknown_field', 'unknown field "' || v.field || '"'
FROM vals AS v ANTI JOIN field_specs AS s USING (kind, field)
WHERE v.kind NOT IN (SELECT kind FROM field_specs WHERE field = '*')  -- a kind with a '*' row takes other fields as they come
UNION ALL
SELECT kind, source, line, record_id, field, 'missing_field', 'required field "' || field || '" is missing'
FROM (SELECT r.kind, r.source, r.line, r.record_id, unnest(list_filter(q.fields, lambda f: NOT list_contains(r.keys, f))) AS field
      FROM recs AS r JOIN required AS q USING (kind) WHERE r.is_object)
UNION ALL
SELECT v.kind, v.source, v.line, v.record_id, v.field, 'invalid_type',
       'expected ' || array_to_string(s.types, ' or ') || ', got ' || v.jtype
FROM vals AS v JOIN field_specs AS s USING (kind, field)
WHERE NOT list_contains(s.types, v.jtype)
UNION ALL
SELECT kind, source, line, record_id, field, 'invalid_value',
       '"' || str || '" is not one of: ' || array_to_string(allowed, ', ')
FROM spec_vals WHERE allowed IS NOT NULL AND str IS NOT NULL AND NOT list_contains(allowed, str)
UNION ALL
SELECT kind, source, line, record_id, field, 'invalid_value', '"' || str || '" does not match ' || pattern
FROM spec_vals WHERE pattern IS NOT NULL AND str IS NOT NULL AND NOT regexp_full_match(str, pattern)
UNION ALL
SELECT kind, source, line, record_id, field, 'invalid_value', CASE format
        WHEN 'http_url' THEN '"' || str || '" is not an absolute http(s) URL'
        WHEN 'date' THEN '"' || str || '" is not a calendar date YYYY-MM-DD'
        WHEN 'person' THEN '"' || str || '" is not a person''s name: it must show a letter or digit and hold no control or invisible character'
        ELSE 'must not be empty' END
FROM spec_vals
WHERE str IS NOT NULL AND CASE format
        WHEN 'http_url' THEN NOT is_http_url(str)
        WHEN 'date' THEN NOT is_calendar_day(str)
        WHEN 'nonblank' THEN trim(str) = ''
        -- a name that signs: empty (not signed yet) or something a person sees, with nothing a terminal obeys or hides
        WHEN 'person' THEN str <> '' AND (NOT regexp_matches(str, '[\p{L}\p{N}]') OR regexp_matches(str, '[\p{C}\p{Zl}\p{Zp}]'))
        ELSE false END
UNION ALL
SELECT kind, source, line, record_id, field, 'invalid_value',
       CAST(int AS VARCHAR) || ' is outside ' || coalesce(CAST(min_int AS VARCHAR), '') || '..' || coalesce(CAST(max_int AS VARCHAR), '')
FROM spec_vals WHERE int IS NOT NULL AND (int < min_int OR int > max_int)
UNION ALL
SELECT kind, source, line, record_id, field, 'too_short',
       'has ' || length(str) || ' characters; at least ' || min_len || ' required'
FROM spec_vals WHERE str IS NOT NULL AND length(str) < min_len
UNION ALL
SELECT kind, source, line, record_id, field, 'too_long',
       'has ' || length(str) || ' characters; at most ' || max_len || ' allowed'
FROM spec_vals WHERE str IS NOT NULL AND length(str) > max_len;
