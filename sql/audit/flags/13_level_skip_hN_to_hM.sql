-- level_skip_hN_to_hM: the heading skips levels after the previous heading
--   type: heading
--   informational: true
SELECT 'level_skip_h' || prev_level || '_to_h' || level AS flag
FROM audit_heading_facts
WHERE prev_level IS NOT NULL AND level > prev_level + 1
