-- file_EXT_not_indicated: the link opens a file whose type neither its name nor its context mentions
--   type: link
SELECT 'file_' || file_ext || '_not_indicated' AS flag
FROM audit_link_facts
WHERE coalesce(file_ext, '') <> '' AND NOT matches_i(name,
    'pdf|xlsx?|excel|csv|zip|word|docx?|spreadsheet|download|kb|mb') AND NOT matches_i(context,
    'pdf|xlsx?|excel|csv|zip|word|docx?|spreadsheet|download|kb|mb')
