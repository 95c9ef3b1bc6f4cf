-- audit_units_drift: where judgment-units.json says other than the units its inventory makes under this rulebook: a unit the file lacks, a unit only the file has, or a unit changed (its flags, counts or any field). A file edited after build shows here; a command that trusts the file (the gate) refuses while this is not empty. Meaningful only in a store that read the inventory.
--   id: unit id
--   change: missing (made from the inventory, not in the file), added (in the file only) or changed
CREATE OR REPLACE VIEW audit_units_drift AS
SELECT coalesce(m.id, b.id) AS id,
    CASE WHEN b.id IS NULL THEN 'missing' WHEN m.id IS NULL THEN 'added' ELSE 'changed' END AS change
FROM (SELECT id, CAST(json(unit_json) AS VARCHAR) AS unit FROM audit_units) AS m
FULL JOIN (SELECT id, CAST(unit AS VARCHAR) AS unit FROM audit_built_units) AS b ON b.id = m.id
WHERE b.id IS NULL OR m.id IS NULL OR m.unit <> b.unit;
