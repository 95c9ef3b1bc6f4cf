-- same_name_different_hrefs_in_page: links with this name lead to different documents in the same page (links a person meets; a fragment of the same document is the same place)
--   type: link
SELECT *
FROM audit_link_facts
WHERE name <> '' AND hrefs_for_name > 1 AND NOT permalink
