-- new_window_not_indicated: the link opens a new window without saying so
--   type: link
--   informational: true
SELECT *
FROM audit_link_facts
WHERE target = '_blank' AND NOT matches_i(name, 'new (window|tab)|opens? in') AND NOT matches_i(coalesce(title, ''),
    'new (window|tab)|opens? in')
