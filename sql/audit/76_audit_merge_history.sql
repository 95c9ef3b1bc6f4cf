-- audit_merge_diff: what changed between two recorded merges (a table macro: audit_merge_diff(FROM_RUN, TO_RUN)): one row per unit and what moved — the row itself (added or removed), its status, its draft, its ratification — with the records that moved it
--   from_run: the earlier merge
--   to_run: the later merge
--   id: unit id
--   what: row, status, draft or ratification
--   old: the value at the earlier merge (absent for an added row)
--   new: the value at the later merge (absent for a removed row)
--   decision_id: the ledger decision in force at the later merge (status and ratification moves)
--   ruling: its family ruling
--   ratified_by: who ratified
--   drafted_by: who or what drafted (draft moves)
--   spot_check: the spot check at the later merge (draft moves)
-- audit_merge_runs: the recorded merges, newest last: when, the inputs' digests, counts
--   run: the merge's number
--   utc: when it ran
--   rows: rows it wrote
--   ratified: rows RATIFIED
--   inputs: the sha256 of each file it read, by path in the audit folder
-- audit_merge_changes: what the latest merge changed against the one before it (audit_merge_diff of the last two runs)
--   from_run: the earlier merge
--   to_run: the later merge
--   id: unit id
--   what: row, status, draft or ratification
--   old: the earlier value
--   new: the later value
--   decision_id: the ledger decision in force at the later merge
--   ruling: its family ruling
--   ratified_by: who ratified
--   drafted_by: who or what drafted
--   spot_check: the spot check at the later merge
CREATE OR REPLACE MACRO audit_merge_diff(a, b) AS TABLE
WITH o AS (SELECT * FROM raw_merge_rows WHERE run = a),
n AS (SELECT * FROM raw_merge_rows WHERE run = b),
j AS (
    SELECT coalesce(n.id, o.id) AS id, o.id IS NULL AS added, n.id IS NULL AS removed,
        o.status AS os, n.status AS ns, coalesce(o.draft_judgment, '') AS od, coalesce(n.draft_judgment, '') AS nd,
        coalesce(o.ratified_judgment, '') || CASE WHEN coalesce(o.decision_id, '') <> '' THEN ' (' || o.decision_id
            || ')' ELSE '' END AS oratif,
        coalesce(n.ratified_judgment, '') || CASE WHEN coalesce(n.decision_id, '') <> '' THEN ' (' || n.decision_id
            || ')' ELSE '' END AS nratif,
        n.decision_id, n.ruling, n.ratified_by, n.drafted_by, n.spot_check
    FROM o FULL JOIN n USING (id)
),
moves AS (
    SELECT id, 'row' AS what, CASE WHEN added THEN 'absent' ELSE 'present' END AS old,
        CASE WHEN removed THEN 'absent' ELSE 'present' END AS new, decision_id, ruling, ratified_by, drafted_by,
            spot_check
    FROM j WHERE added OR removed
    UNION ALL SELECT id, 'status', os, ns, decision_id, ruling, ratified_by, NULL, NULL
    FROM j WHERE NOT added AND NOT removed AND os IS DISTINCT FROM ns
    UNION ALL SELECT id, 'draft', od, nd, NULL, NULL, NULL, drafted_by, spot_check
    FROM j WHERE NOT added AND NOT removed AND od IS DISTINCT FROM nd
    UNION ALL SELECT id, 'ratification', oratif, nratif, decision_id, ruling, ratified_by, NULL, NULL
    FROM j WHERE NOT added AND NOT removed AND oratif IS DISTINCT FROM nratif
)
SELECT a AS from_run, b AS to_run, * FROM moves ORDER BY id, what;

CREATE OR REPLACE VIEW audit_merge_runs AS
SELECT run, utc, CAST(doc ->> '$.counts.rows' AS BIGINT) AS rows,
    CAST(doc ->> '$.counts.ratified' AS BIGINT) AS ratified,
    doc -> '$.inputs' AS inputs
FROM raw_merge_runs ORDER BY run;

CREATE OR REPLACE VIEW audit_merge_changes AS
SELECT * FROM audit_merge_diff((SELECT max(run) - 1 FROM raw_merge_runs), (SELECT max(run) FROM raw_merge_runs));
