-- href_hash_only: the link's href is only #
--   type: link
--   informational: true
SELECT *
FROM audit_link_facts
WHERE same_page AND href_raw = '#'
