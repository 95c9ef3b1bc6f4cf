-- audit_hidden_units: what was captured but no person meets: heading, link, image and field units whose every occurrence is not drawn (display:none, visibility:hidden, also through an ancestor) and not exposed to assistive technology (a capture without the accessibility tree hides nothing); they are no judgment rows, and stay here to be queried
--   id: the unit id it would have
--   type: unit type
--   product: product
--   unit_key: dedupe key
--   views: the views it was captured on
--   occurrences: number of occurrences
--   name: name (first occurrence)
--   selector: CSS path (first occurrence)
CREATE OR REPLACE VIEW audit_hidden_units AS
SELECT unit_id(type, product, unit_key) AS id, type, product, unit_key,
    list_transform(list_sort(list_distinct(list({'p': w.view_pos, 'v': view_id}))), lambda x: x.v) AS views,
    count(*) AS occurrences, arg_min(name, {'p': pos, 'i': i}) AS name, arg_min(selector, {'p': pos,
        'i': i}) AS selector
FROM audit_occurrences
JOIN (SELECT view_id, min(pos) AS view_pos FROM audit_views GROUP BY view_id) AS w USING (view_id)
WHERE type IN ('heading', 'link', 'image', 'field')
GROUP BY type, product, unit_key
HAVING NOT bool_or(NOT (coalesce(evidence.undrawn, false) AND evidence.exposed IS FALSE));
