-- audit_decisive_flags: the units that carry a flag that is not informational (what "flagged" means everywhere: the build summary, the report, sampling, calibration and the worklist), with those flags as one pattern
--   id: unit id
--   pattern: its non-informational flags, sorted, joined by " + "
CREATE OR REPLACE VIEW audit_decisive_flags AS
SELECT id, array_to_string(list_sort(list(f)), ' + ') AS pattern
FROM (SELECT id, unnest(flags) AS f FROM audit_built_units) AS uf
WHERE is_decisive(uf.f)
GROUP BY id;
