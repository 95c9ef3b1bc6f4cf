-- eval_pattern_groups: one row per run and pattern group: its members and their judgments; split when they are not all judged alike
--   run: the run
--   pattern_group: the group
--   members: the units in it
--   judgments: their judgments, member by member (missing for none)
--   split: whether the members were not all judged alike
CREATE OR REPLACE VIEW eval_pattern_groups AS
SELECT run, pattern_group, list(coalesce(unit_id, row_key) ORDER BY row_key) AS members,
    list(coalesce(judgment, 'missing') ORDER BY row_key) AS judgments,
    count(DISTINCT coalesce(judgment, 'missing')) > 1 AS split
FROM eval_results WHERE pattern_group IS NOT NULL AND pattern_group <> ''
GROUP BY run, pattern_group
ORDER BY run, pattern_group;
