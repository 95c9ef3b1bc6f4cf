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
recs AS (  -- each object record with its shape: its top-level keys and their JSON types (jsonl_records.shape)
    SELECT r.kind, r.source, r.line, r.record_id, r.doc, r.shape
    FROM jsonl_records AS r SEMI JOIN checked USING (kind) WHERE r.is_object
),
shapes AS (SELECT DISTINCT kind, shape FROM recs),
shape_fields AS (  -- a shape's keys with their types in jfi's words (an empty object's shape has none; a key given
    -- twice, which the strict reader refuses, once for each type it was given)
    SELECT DISTINCT kind, shape, unnest(json_extract_string(shape, '$.keys[*]')) AS field,
        jtype_name(unnest(json_extract_string(shape, '$.types[*]'))) AS jtype
    FROM shapes
),
shape_violations AS (  -- the rules a record breaks by its shape alone: checked once per shape, not once per record
    SELECT f.kind, f.shape, f.field, 'unknown_field' AS code, 'unknown field "' || f.field || '"' AS message
    FROM shape_fields AS f ANTI JOIN field_specs AS s USING (kind, field)
    WHERE f.kind NOT IN (SELECT kind FROM field_specs
        WHERE field = '*')  -- a kind with a '*' row takes other fields as they come
    UNION ALL
    SELECT h.kind, h.shape, q.field, 'missing_field', 'required field "' || q.field || '" is missing'
    FROM shapes AS h JOIN field_specs AS q ON q.kind = h.kind AND q.required
    WHERE NOT EXISTS (SELECT 1 FROM shape_fields AS f WHERE f.kind = h.kind AND f.shape = h.shape AND f.field = q.field)
    UNION ALL
    SELECT f.kind, f.shape, f.field, 'invalid_type', 'expected ' || array_to_string(s.types, ' or ') || ', got '
        || f.jtype
    FROM shape_fields AS f JOIN field_specs AS s USING (kind, field)
    WHERE NOT list_contains(s.types, f.jtype)
),
constrained AS (  -- the specs that test a value
    SELECT * FROM field_specs
    WHERE field <> '*' AND (allowed IS NOT NULL OR pattern IS NOT NULL OR format IS NOT NULL OR min_len IS NOT NULL
        OR max_len IS NOT NULL OR min_int IS NOT NULL OR max_int IS NOT NULL)
),
shape_specs AS (  -- per shape, the constrained fields it holds of a type their spec allows, each with its place
    -- among the shape's keys (a record's values come in the order of its keys)
    SELECT f.kind, f.shape, list({'field': s.field, 'allowed': s.allowed, 'pattern': s.pattern, 'format': s.format,
        'min_len': s.min_len, 'max_len': s.max_len, 'min_int': s.min_int, 'max_int': s.max_int, 'jtype': f.jtype}
        ORDER BY s.field) AS specs,
        -- the places, in the specs' order
        list(list_position(json_extract_string(f.shape, '$.keys[*]'), f.field) ORDER BY s.field) AS ats
    FROM shape_fields AS f JOIN constrained AS s ON s.kind = f.kind AND s.field = f.field
    WHERE list_contains(s.types, f.jtype)
    GROUP BY f.kind, f.shape
),
typed_vals AS (  -- each constrained field a record holds, of a type its spec allows (the type read off the record's
    -- shape, computed once per shape), its value taken from the record's values, read in one pass over its JSON: the
    -- values of its specs' places, unnested beside the specs (a row carrying all the record's values cost twice this)
    SELECT kind, source, line, record_id, spec.field, spec.allowed, spec.pattern, spec.format, spec.min_len,
        spec.max_len, spec.min_int, spec.max_int, spec.jtype, raw
    FROM (SELECT r.kind, r.source, r.line, r.record_id, unnest(v.specs) AS spec,
              unnest(list_select(json_extract_string(r.doc, '$.*'), v.ats)) AS raw
          FROM recs AS r JOIN shape_specs AS v USING (kind, shape))
),
value_violations AS (  -- the rules a value breaks, each row's in one pass
    SELECT kind, source, line, record_id, field, unnest(list_filter([
        CASE WHEN allowed IS NOT NULL AND str IS NOT NULL AND NOT list_contains(allowed, str) THEN
            {'code': 'invalid_value', 'message': '"' || str || '" is not one of: ' || array_to_string(allowed,
                ', ')} END,
        CASE WHEN pattern IS NOT NULL AND str IS NOT NULL AND NOT regexp_full_match(str, pattern) THEN
            {'code': 'invalid_value', 'message': '"' || str || '" does not match ' || pattern} END,
        CASE WHEN str IS NOT NULL AND CASE format
                WHEN 'http_url' THEN NOT is_http_url(str)
                WHEN 'date' THEN NOT is_calendar_day(str)
                WHEN 'nonblank' THEN trim(str) = ''
                -- a name that signs: empty (not signed yet) or something a person sees, with nothing a terminal obeys or hides
                WHEN 'person' THEN str <> '' AND (NOT regexp_matches(str, '[\p{L}\p{N}]') OR regexp_matches(str,
                    '[\p{C}\p{Zl}\p{Zp}]'))
                ELSE false END THEN
            {'code': 'invalid_value', 'message': CASE format
                WHEN 'http_url' THEN '"' || str || '" is not an absolute http(s) URL'
                WHEN 'date' THEN '"' || str || '" is not a calendar date YYYY-MM-DD'
                WHEN 'person' THEN '"' || str
                    || '" is not a person''s name: it must show a letter or digit and hold no control or invisible character'
                ELSE 'must not be empty' END} END,
        CASE WHEN int IS NOT NULL AND (int < min_int OR int > max_int) THEN
            {'code': 'invalid_value', 'message': CAST(int AS VARCHAR) || ' is outside '
                || coalesce(CAST(min_int AS VARCHAR), '')
                || '..' || coalesce(CAST(max_int AS VARCHAR), '')} END,
        CASE WHEN str IS NOT NULL AND length(str) < min_len THEN
            {'code': 'too_short', 'message': 'has ' || length(str) || ' characters; at least ' || min_len
                || ' required'} END,
        CASE WHEN str IS NOT NULL AND length(str) > max_len THEN
            {'code': 'too_long', 'message': 'has ' || length(str) || ' characters; at most ' || max_len
                || ' allowed'} END],
        lambda v: v IS NOT NULL)) AS v
    FROM (SELECT *, CASE WHEN jtype = 'string' THEN raw END AS str,
              CASE WHEN jtype = 'integer' THEN TRY_CAST(raw AS HUGEINT) END AS int
          FROM typed_vals)
)
SELECT l.* FROM jsonl_line_violations AS l SEMI JOIN checked USING (kind)
UNION ALL
SELECT r.kind, r.source, r.line, r.record_id, v.field, v.code, v.message
FROM recs AS r JOIN shape_violations AS v USING (kind, shape)
UNION ALL
SELECT kind, source, line, record_id, field, v.code, v.message FROM value_violations;
