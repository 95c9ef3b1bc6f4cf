-- audit_batches: each unit's judge batch: per product and type, in build order, at most batch_size units a file (axe-core's findings go to no judge: a person decides them)
--   batch: batch file name <product>-<type>-NN.jsonl
--   line_no: the unit's line in that file
--   unit_ord: build order
--   id: unit id
--   line: the batch line as JSON {id, type, sc, name, detail, href, context, landmark, visible, views, flags}
CREATE OR REPLACE VIEW audit_batches AS
WITH numbered AS (
    SELECT u.*, row_number() OVER (PARTITION BY product, type ORDER BY unit_ord) - 1 AS k,
        min(unit_ord) OVER (PARTITION BY product, type) AS group_ord
    FROM audit_units AS u
    WHERE type <> 'finding'
)
SELECT product || '-' || type || '-' || printf('%02d', k // (SELECT batch_size FROM jfi_run) + 1) || '.jsonl' AS batch,
    k % (SELECT batch_size FROM jfi_run) + 1 AS line_no, unit_ord, id,
    CAST(json_object('id', id, 'type', type, 'sc', sc, 'name', name, 'detail', detail, 'href', href, 'context', context,
        'landmark', landmark, 'visible', visible, 'views', view_count, 'flags', flags) AS VARCHAR) AS line
FROM numbered
ORDER BY group_ord, k;
