-- heading_generic: the heading is a generic word (overview, details, more, ...)
--   type: heading
SELECT *
FROM audit_heading_facts
WHERE matches_i(name,
    '^(overview|details|detail|more|information|info|section|untitled|content|title|heading|description|summary|misc|other|general|notes?)$')
