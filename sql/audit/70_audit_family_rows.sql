-- audit_family_rows: every row not yet ratified with the structure the family rules read: where it sits, what it names, where it leads, and whether a structural family may hold it (plain: no flag that is not informational, and not drafted unsure: those rows need a look of their own)
--   id: unit id
--   type: unit type
--   product: product
--   sort_ord: the row's place in the draft rows
--   name_norm: its normalised name
--   level: a heading's level (h1...h6); NULL for other types
--   landmark: enclosing landmark ('' when none)
--   shape: its CSS path without positions (:nth-of-type, :nth-child): the container pattern it repeats in
--   href: the link's destination (or the image's source)
--   view_count: views it is on
--   product_views: views of its product
--   in_page: a link whose destination is the document it sits in, on every view it is on (a table of contents, a "#" or "¶" permalink, a heading self-link; a sidebar entry is in its own page only on that page)
--   names_destination: a link whose name is the title of the captured page it leads to
--   plain: no decisive flag, and no session draft of unsure
--   unsure: drafted unsure (a look of its own, in no structural family)
--   flag_pattern: its decisive flags as one pattern ('' when none)
CREATE OR REPLACE VIEW audit_family_rows AS
WITH pages AS (  -- every view's title row carries the view's address: the documents and titles come from the built rows alone
    SELECT product, unnest(views) AS view_id, document_of(href) AS doc, norm_text(name) AS title
    FROM audit_built_units WHERE type = 'title'
),
product_views AS (SELECT product, count(DISTINCT view_id) AS product_views FROM pages GROUP BY product),
view_docs AS (SELECT view_id, any_value(doc) AS doc FROM pages GROUP BY view_id),
titles AS (SELECT doc, list(DISTINCT title) AS titles FROM pages GROUP BY doc),
homes AS (  -- the documents of the views each link sits on
    SELECT u.id, list(DISTINCT v.doc) AS docs
    FROM (SELECT id, unnest(views) AS view_id FROM audit_built_units WHERE type = 'link') AS u JOIN view_docs AS v USING (view_id)
    GROUP BY u.id
)
SELECT d.id, d.type, d.product, d.sort_ord, norm_text(d.name) AS name_norm,
    CASE WHEN d.type = 'heading' THEN u.detail END AS level,
    coalesce(u.landmark, '') AS landmark,
    regexp_replace(coalesce(u.selector, ''), ':nth-(of-type|child)\(\d+\)', '', 'g') AS shape,
    u.href, u.view_count, p.product_views,
    coalesce(d.type = 'link' AND h.docs = [document_of(u.href)], false) AS in_page,
    d.type = 'link' AND length(norm_text(d.name)) >= 2
        AND coalesce(list_bool_or(list_transform(t.titles, lambda x: contains(x, norm_text(d.name)))), false) AS names_destination,
    x.pattern IS NULL AND coalesce(d.session_draft_judgment, '') <> 'unsure' AS plain,
    coalesce(d.session_draft_judgment, '') = 'unsure' AS unsure,
    coalesce(x.pattern, '') AS flag_pattern
FROM audit_draft_rows AS d
JOIN audit_built_units AS u USING (id)
LEFT JOIN audit_decisive_flags AS x USING (id)
LEFT JOIN product_views AS p ON p.product = d.product
LEFT JOIN homes AS h USING (id)
LEFT JOIN titles AS t ON d.type = 'link' AND t.doc = document_of(u.href)
WHERE d.status <> 'RATIFIED';
