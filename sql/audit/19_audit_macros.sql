-- norm_text: lower-case, whitespace collapsed to one space, trimmed (the "norm" of unit keys)
-- dest: a link's destination identity: host + path with one trailing / removed + query + fragment
-- unit_id: TYPE-PR-<first 10 hex of sha256("type|product|key")>
-- matches_i: case-insensitive regular-expression test that is false (not NULL) on NULL text
CREATE OR REPLACE MACRO norm_text(s) AS
    trim(regexp_replace(lower(coalesce(s, '')), '[\s\x{00a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]+', ' ', 'g'));
CREATE OR REPLACE MACRO dest(h) AS CASE
    WHEN regexp_matches(h, '^[a-zA-Z][a-zA-Z0-9+.-]*://') THEN
        regexp_replace(lower(regexp_extract(h, '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]*)', 1))
            || regexp_extract(h, '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*([^?#]*)', 1), '/$', '')
        || regexp_extract(h, '^[^?#]*(\?[^#]*)?', 1) || regexp_extract(h, '^[^#]*(#.*)?', 1)
    WHEN regexp_matches(h, '^[a-zA-Z][a-zA-Z0-9+.-]*:') THEN
        regexp_replace(regexp_extract(h, '^[a-zA-Z][a-zA-Z0-9+.-]*:([^?#]*)', 1), '/$', '')
        || regexp_extract(h, '^[^?#]*(\?[^#]*)?', 1) || regexp_extract(h, '^[^#]*(#.*)?', 1)
    ELSE norm_text(h) END;
CREATE OR REPLACE MACRO unit_id(type, product, key) AS
    upper(type) || '-' || upper(substr(product, 1, 2)) || '-' || substr(sha256(type || '|' || product || '|' || key), 1, 10);
CREATE OR REPLACE MACRO matches_i(s, pattern) AS coalesce(regexp_matches(s, pattern, 'i'), false);
