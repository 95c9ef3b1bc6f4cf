-- jtype_name: a DuckDB JSON type name in jfi's words
-- jtype: the JSON type of the value at a path, in jfi's words (string, integer, number, boolean, array, object, null; NULL when absent)
-- jstr: the string at a path, or NULL when absent or not a string
-- jval_str: the string a JSON value holds (one element of a json_extract list, minified: a string starts with its quote), or NULL when it is not a string
-- jint: the integer at a path, or NULL when absent or not an integer
-- jbool: the boolean at a path, or NULL when absent or not a boolean
-- url_host: the lower-cased host of an http(s) URL, or NULL when it is not one
-- url_domain: the host of an http(s) URL with a leading www. removed
-- is_http_url: whether a string is an absolute http(s) URL with a host
-- is_calendar_day: whether a string is a real calendar date YYYY-MM-DD
-- is_utc_instant: whether a string is a real UTC timestamp YYYY-MM-DDTHH:MM[:SS[.fff]]Z
-- plainly_strict_json: whether a line is RFC 8259 JSON with no key repeated, by tests DuckDB makes alone: valid for DuckDB, no nested object (at most one brace, counted in bytes) and its keys distinct, nothing a lax reader takes (a comma before a closing bracket, NaN or Infinity), no \u escape, no deep nesting. A line that fails this is read again by the strict line reader (raw_json_problems), which names its problem
CREATE OR REPLACE MACRO jtype_name(t) AS CASE t
    WHEN 'VARCHAR' THEN 'string' WHEN 'BIGINT' THEN 'integer' WHEN 'UBIGINT' THEN 'integer'
    WHEN 'DOUBLE' THEN 'number' WHEN 'BOOLEAN' THEN 'boolean' WHEN 'ARRAY' THEN 'array'
    WHEN 'OBJECT' THEN 'object' WHEN 'NULL' THEN 'null' END;
CREATE OR REPLACE MACRO jtype(doc, path) AS jtype_name(json_type(doc, path));
CREATE OR REPLACE MACRO jstr(doc, path) AS CASE WHEN json_type(doc, path) = 'VARCHAR' THEN doc ->> path END;
CREATE OR REPLACE MACRO jval_str(v) AS CASE WHEN starts_with(v, '"') THEN v ->> '$' END;
CREATE OR REPLACE MACRO jint(doc, path) AS
    CASE WHEN json_type(doc, path) IN ('BIGINT', 'UBIGINT') THEN TRY_CAST(doc ->> path AS BIGINT) END;
CREATE OR REPLACE MACRO jbool(doc, path) AS
    CASE WHEN json_type(doc, path) = 'BOOLEAN' THEN (doc ->> path) = 'true' END;
CREATE OR REPLACE MACRO is_http_url(u) AS regexp_full_match(u, '(?i)https?://[^\s/?#@]+(@[^\s/?#@]+)?([/?#]\S*)?');
CREATE OR REPLACE MACRO url_host(u) AS CASE WHEN is_http_url(u) THEN
    lower(regexp_extract(u, '(?i)^https?://(?:[^/?#@]*@)?(\[[^\]]*\]|[^:/?#]+)', 1)) END;
CREATE OR REPLACE MACRO url_domain(u) AS regexp_replace(url_host(u), '^www\.', '');
CREATE OR REPLACE MACRO is_calendar_day(s) AS
    regexp_full_match(s, '\d{4}-\d{2}-\d{2}') AND try_strptime(s, '%Y-%m-%d') IS NOT NULL;
CREATE OR REPLACE MACRO is_utc_instant(s) AS
    regexp_full_match(s, '\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z')
    AND try_strptime(substr(s, 1, 16), '%Y-%m-%dT%H:%M') IS NOT NULL
    AND (length(s) = 17 OR TRY_CAST(substr(s, 18, 2) AS INTEGER) <= 59);
CREATE OR REPLACE MACRO plainly_strict_json(t) AS CASE WHEN json_valid(t) THEN  -- the JSON functions only on valid JSON
    strlen(t) - strlen(replace(t, '{', '')) <= 1 AND strlen(t) - strlen(replace(t, '[', '')) < 100
    AND NOT contains(t, '\u') AND NOT regexp_matches(t, ',\s*[\]}]') AND NOT regexp_matches(t,
        '(?i)(^|[:,\[])\s*[-+]?(nan|inf)')
    -- keys distinct: each key's first place is its own (cheaper than hashing a handful of keys)
    AND (json_type(t) <> 'OBJECT' OR list_transform([json_keys(t)], lambda k: len(list_filter(k, lambda x, i:
        list_position(k, x) <> i)) = 0)[1]) ELSE false END;
