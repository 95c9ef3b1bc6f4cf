-- link_name_is_url: the link's name is a URL (the contains test only skips links whose name's first word is not in the href)
--   type: link
--   fact_class: raw-URL text
SELECT *
FROM audit_link_facts
WHERE name <> '' AND (matches_i(name, '^https?://') OR (contains(lower(coalesce(href, '') || ' ' || href_raw),
    split_part(name_norm, ' ', 1)) AND name_norm IN (norm_text(href), norm_text(href_raw))))
