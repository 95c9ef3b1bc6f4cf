-- audit_title_facts: one row per inventoried view's page title, with the facts its flags test
--   type: title
--   sc: WCAG success criterion judged (2.4.2)
--   product: product
--   pos: the view's position
--   view_id: view id
--   i: element index (0 for a title)
--   unit_key: dedupe key (the view id: every view's title is judged)
--   name: the title
--   detail: the page's h1 texts
--   context: the meta description
--   landmark: none for a title
--   selector: title
--   visible: true
--   href: the view's URL
--   title_views: views of the product with the same normalised title
--   h1s: the page's non-empty h1 texts
--   h1_words: words of more than three letters in the h1s
--   h1_count: number of h1 elements
--   has_empty_h1: whether an h1 has no text
--   exposed: NULL (a title is the document's, not an element the accessibility tree may leave out)
CREATE OR REPLACE TABLE audit_title_facts AS
WITH t AS (
    SELECT pos, view_id, product, url, coalesce(c.content.meta.title, '') AS title,
        coalesce(c.content.meta.h1, []) AS h1_all, c.content.meta.h1_count AS h1_count,
        coalesce(c.content.meta.meta_description, '') AS meta_description
    FROM audit_views JOIN audit_view_content AS c USING (pos) WHERE ok
)
SELECT 'title' AS type, '2.4.2' AS sc, product, pos, view_id, 0 AS i, view_id AS unit_key, title AS name,
    'h1: ' || coalesce(nullif(array_to_string(list_filter(h1_all, lambda x: coalesce(x, '') <> ''), ' | '), ''),
        '(none)') AS detail,
    meta_description AS context, CAST(NULL AS VARCHAR) AS landmark, 'title' AS selector, true AS visible, url AS href,
    count(*) OVER (PARTITION BY product, norm_text(title)) AS title_views,
    list_filter(h1_all, lambda x: coalesce(x, '') <> '') AS h1s,
    list_filter(string_split_regex(norm_text(array_to_string(list_filter(h1_all, lambda x: coalesce(x, '') <> ''),
        ' ')), '\W+'),
        lambda w: length(w) > 3) AS h1_words,
    h1_count,
    list_bool_or(list_transform(h1_all, lambda x: coalesce(x, '') = '')) AS has_empty_h1,
    CAST(NULL AS BOOLEAN) AS exposed
FROM t;
