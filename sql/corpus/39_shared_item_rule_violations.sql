-- shared_item_rule_violations: one row per broken cross-field rule every profile shares: ids unique, domain agreeing with page_url's host (without www.), category following the sub-type
--   source: corpus file path
--   line: 1-based line number
--   record_id: item id
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW shared_item_rule_violations AS
WITH items AS (SELECT * FROM corpus_items)
SELECT source, line, id AS record_id, 'id' AS field, 'duplicate_id' AS code,
       'id ' || id || ' is already used on line ' || first_line AS message
FROM (SELECT *, first_value(line) OVER (PARTITION BY id ORDER BY line) AS first_line,
             row_number() OVER (PARTITION BY id ORDER BY line) AS nth FROM items WHERE id IS NOT NULL)
WHERE nth > 1
UNION ALL
SELECT source, line, id, 'domain', 'domain_mismatch',
       'domain "' || domain || '" does not agree with page_url host "' || host || '"'
FROM (SELECT *, regexp_replace(lower(regexp_extract(page_url,
    '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(\[[^\]]*\]|[^:/?#]+)', 1)),
                               '^www\.', '') AS host
                                   FROM items)  -- any scheme: a host upstream's validators compare too
WHERE host <> '' AND domain IS NOT NULL AND domain <> host
UNION ALL
SELECT i.source, i.line, i.id, 'subtype', 'category_subtype_mismatch',
       'sub-type ' || i.subtype || ' belongs to category ' || s.category || ', not ' || i.category
FROM items AS i JOIN corpus_subtypes AS s USING (subtype)
WHERE i.category BETWEEN 1 AND 5 AND i.category <> s.category;
