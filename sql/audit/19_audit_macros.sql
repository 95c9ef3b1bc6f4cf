-- norm_text: lower-case, whitespace collapsed to one space, trimmed (the "norm" of unit keys)
-- dest_parts: an href split by one regular expression into scheme, authority, host, path, query and fragment
-- without_final_slash: a text without one trailing /
-- dest_of: a link's destination identity from its dest_parts: host + path with one trailing / removed + query + fragment (the normalised href when it has no scheme)
-- dest: dest_of(dest_parts(href)): a link's destination identity
-- without_fragment: a URL or destination identity up to its first #: the document it names
-- document_of: the document an absolute URL names: the URL without its fragment and final slashes (string functions only: it runs on every link)
-- unit_id: TYPE-PR-<first 10 hex of sha256("type|product|key")>
-- matches_i: case-insensitive regular-expression test that is false (not NULL) on NULL text
-- flag_meaning: a flag rule's meaning said of one flag it fired as, its N the flag's own number (rule h1_count_N, flag h1_count_2: "the page has 2 h1 elements")
CREATE OR REPLACE MACRO norm_text(s) AS
    -- a run of two or more whitespace characters, or one that is not a plain space, becomes one space (a lone space is left as is, which is much faster)
    trim(regexp_replace(lower(coalesce(s, '')),
        '[\s\x{00a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]{2,}|[\t\n\f\r\x{00a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]',
        ' ', 'g'));
CREATE OR REPLACE MACRO dest_parts(h) AS regexp_extract(h,
    '^(?:([a-zA-Z][a-zA-Z0-9+.-]*:)(//(?:[^@/?#]*@)?([^/?#]*))?)?([^?#]*)(\?[^#]*)?(#.*)?',
    ['scheme', 'authority', 'host', 'path', 'query', 'fragment']);
CREATE OR REPLACE MACRO without_final_slash(s) AS CASE WHEN ends_with(s, '/') THEN left(s, -1) ELSE s END;
CREATE OR REPLACE MACRO dest_of(p, h) AS CASE
    WHEN coalesce(p.scheme, '') = '' THEN norm_text(h)
    WHEN p.authority <> '' THEN without_final_slash(lower(p.host) || p.path) || p.query || p.fragment
    ELSE without_final_slash(p.path) || p.query || p.fragment END;
CREATE OR REPLACE MACRO dest(h) AS dest_of(dest_parts(h), h);
CREATE OR REPLACE MACRO without_fragment(h) AS split_part(h, '#', 1);
CREATE OR REPLACE MACRO document_of(h) AS rtrim(without_fragment(h), '/');
CREATE OR REPLACE MACRO unit_id(type, product, key) AS
    upper(type) || '-' || upper(substr(product, 1, 2)) || '-' || substr(sha256(type || '|' || product || '|' || key), 1,
        10);
CREATE OR REPLACE MACRO matches_i(s, pattern) AS coalesce(regexp_matches(s, pattern, 'i'), false);
CREATE OR REPLACE MACRO flag_meaning(rule, meaning, flag) AS CASE
    WHEN regexp_matches(rule, '(^|_)N(_|$)') THEN regexp_replace(meaning, '\bN\b',
        regexp_extract(flag, '^' || regexp_replace(rule, '(^|_)N(_|$)', '\1([0-9]+)\2') || '$', 1), 'g')
    ELSE meaning END;
