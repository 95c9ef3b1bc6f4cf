-- audit_family_rows: every row not yet ratified with the structure the family rules read: where it sits, what it names, where it leads, and whether a structural family may hold it (plain: no flag that is not informational, and not drafted unsure: those rows need a look of their own)
--   id: unit id
--   type: unit type
--   product: product
--   sort_ord: the row's place in the draft rows
--   name_norm: its normalised name
--   level: a heading's level (h1...h6); NULL for other types
--   landmark: enclosing landmark ('' when none)
--   shape: its CSS path, without positions (:nth-of-type, :nth-child) for a link, image or field: the container pattern it repeats in
--   href: the link's destination (or the image's source)
--   view_count: views it is on
--   product_views: views of its product
--   in_page: a link whose destination is the document it sits in, on every view it is on (a table of contents, a "#" or "¶" permalink, a heading self-link; a sidebar entry is in its own page only on that page)
--   names_destination: a link whose name is the title of the captured page it leads to
--   plain: no decisive flag, and no session draft of unsure
--   unsure: drafted unsure (a look of its own, in no structural family)
--   flag_pattern: its decisive flags as one pattern ('' when none)
--   draft: its session draft (yes, no, unsure, or '' when none)
CREATE OR REPLACE VIEW audit_family_rows AS
WITH pages AS (  -- every view's title row carries the view's address: the documents and titles come from the built rows alone
    SELECT product, unnest(views) AS view_id, document_of(href) AS doc, norm_text(name) AS title
    FROM audit_built_units WHERE type = 'title'
),
product_views AS (SELECT product, count(DISTINCT view_id) AS product_views FROM pages GROUP BY product),
view_docs AS (SELECT view_id, any_value(doc) AS doc FROM pages GROUP BY view_id),
titles AS (SELECT doc, list(DISTINCT title) AS titles FROM pages GROUP BY doc),
open_rows AS (  -- each open row's facts, each computed once (and a link's documents only for links)
    SELECT d.id, d.type, d.product, d.sort_ord, norm_text(d.name) AS name_norm, d.session_draft_judgment,
        u.detail, u.landmark, u.selector, u.href, u.view_count, u.views,
        CASE WHEN d.type = 'link' THEN document_of(u.href) END AS href_doc
    FROM audit_draft_rows AS d JOIN audit_built_units AS u USING (id)
    WHERE d.status <> 'RATIFIED'
),
homes AS (  -- the documents of the views each open link sits on
    SELECT o.id, list(DISTINCT v.doc) AS docs
    FROM (SELECT id, unnest(views) AS view_id FROM open_rows WHERE type = 'link') AS o
        JOIN view_docs AS v USING (view_id)
    GROUP BY o.id
)
SELECT o.id, o.type, o.product, o.sort_ord, o.name_norm,
    CASE WHEN o.type = 'heading' THEN o.detail END AS level,
    coalesce(o.landmark, '') AS landmark,
    CASE WHEN o.type IN ('link', 'image', 'field') THEN regexp_replace(coalesce(o.selector, ''),
        ':nth-(of-type|child)\(\d+\)', '', 'g')
         ELSE coalesce(o.selector, '') END AS shape,
    o.href, o.view_count, p.product_views,
    coalesce(h.docs = [o.href_doc], false) AS in_page,
    coalesce(length(o.name_norm) >= 2 AND list_bool_or(list_transform(t.titles, lambda x: contains(x, o.name_norm))),
        false)
        AS names_destination,
    x.pattern IS NULL AND coalesce(o.session_draft_judgment, '') <> 'unsure' AS plain,
    coalesce(o.session_draft_judgment, '') = 'unsure' AS unsure,
    coalesce(x.pattern, '') AS flag_pattern,
    coalesce(o.session_draft_judgment, '') AS draft
FROM open_rows AS o
LEFT JOIN audit_decisive_flags AS x USING (id)
LEFT JOIN product_views AS p ON p.product = o.product
LEFT JOIN homes AS h USING (id)
LEFT JOIN titles AS t ON t.doc = o.href_doc;
