-- title_shared_by_N_views: N views of the product share this title
--   type: title
SELECT 'title_shared_by_' || title_views || '_views' AS flag
FROM audit_title_facts
WHERE title_views > 1
