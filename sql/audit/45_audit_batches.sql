-- audit_batches: each unit's judge batch: per product and type, in build order, at most batch_size units a file (axe-core's findings go to no judge: a person decides them)
--   batch: batch file name <product>-<type>-NN.jsonl
--   line_no: the unit's line in that file
--   unit_ord: build order
--   id: unit id
--   line: the batch line as JSON {id, type, sc, name, detail, href, context, landmark, visible, views, flags, other_hrefs}: what the row's question needs (a link's destination and context, a heading's section preview as its context, and for a link whose flag says links of its name go elsewhere on the page, where those go: at most five)
CREATE OR REPLACE VIEW audit_batches AS
WITH others AS (  -- the destinations a same_name_different_hrefs_in_page flag points at, on the pages the link is on
    SELECT u.id, list(DISTINCT o.href ORDER BY o.href)[1:5] AS hrefs
    FROM audit_units AS u
    JOIN audit_link_facts AS f ON f.unit_key = u.unit_key AND f.product = u.product
    JOIN audit_link_facts AS o ON o.pos = f.pos AND o.name_norm = f.name_norm AND NOT o.permalink AND o.visible
        AND o.exposed IS NOT FALSE
        AND without_fragment(o.dest) <> without_fragment(f.dest)
    WHERE u.type = 'link' AND list_contains(u.flags, 'same_name_different_hrefs_in_page')
    GROUP BY u.id
),
numbered AS (
    SELECT u.*, row_number() OVER (PARTITION BY product, type ORDER BY unit_ord) - 1 AS k,
        min(unit_ord) OVER (PARTITION BY product, type) AS group_ord
    FROM audit_units AS u
    WHERE type <> 'finding'
)
SELECT product || '-' || type || '-' || printf('%02d', k // (SELECT batch_size FROM jfi_run) + 1) || '.jsonl' AS batch,
    k % (SELECT batch_size FROM jfi_run) + 1 AS line_no, unit_ord, id,
    CAST(json_object('id', id, 'type', type, 'sc', sc, 'name', name, 'detail', detail, 'href', href, 'context', context,
        'landmark', landmark, 'visible', visible, 'views', view_count, 'flags', flags,
        'other_hrefs', coalesce(o.hrefs, [])) AS VARCHAR) AS line
FROM numbered LEFT JOIN others AS o USING (id)
ORDER BY group_ord, k;
