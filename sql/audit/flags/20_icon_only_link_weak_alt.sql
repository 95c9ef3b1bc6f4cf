-- icon_only_link_weak_alt: an image-only link whose image has no or a generic alt and no aria-label or aria-labelledby name
--   type: link
SELECT *
FROM audit_link_facts
WHERE icon_only AND (coalesce(img_alt, '') = '' OR matches_i(img_alt,
    '^(image|photo|picture|icon|logo|graphic|img|figure|banner|thumbnail|arrow|chevron|bullet|spacer|placeholder)$'))
    AND name_source NOT IN ('aria-label', 'aria-labelledby')
