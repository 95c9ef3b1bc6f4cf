-- link_generic_text: the link's name is generic (learn more, click here, ...)
--   type: link
SELECT *
FROM audit_link_facts
WHERE matches_i(name,
    '^(click here|here|read more|learn more|more|link|this page|this|download|view|details|go|see more|more info|info|continue|next|previous|back|home page|website|open|full article|full story|page)$')
