-- audit_decisive_flags: the units that carry a flag that is not informational (what "flagged" means for sampling, calibration and the worklist), with those flags as one pattern
--   id: unit id
--   pattern: its non-informational flags, sorted, joined by " + "
CREATE OR REPLACE VIEW audit_decisive_flags AS
SELECT id, array_to_string(list_sort(list(f)), ' + ') AS pattern
FROM (SELECT id, unnest(flags) AS f FROM audit_built_units) AS uf
WHERE NOT EXISTS (SELECT 1 FROM audit_flag_rules AS r WHERE r.informational AND regexp_full_match(uf.f, r.pattern))
GROUP BY id;
