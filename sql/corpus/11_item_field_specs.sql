-- field_specs (item rows shared by every profile): the fields every era of the corpus format defines alike; each row is one field rule
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int,
    meaning)
SELECT 'item', * FROM (VALUES
    ('category', true, ['integer'], NULL, NULL, NULL, NULL, NULL, 1, 5, 'functional-image category 1-5'),
    ('subtype', true, ['string'], (SELECT list(subtype ORDER BY category, subtype) FROM corpus_subtypes), NULL, NULL,
        NULL, NULL, NULL, NULL, 'sub-type within the category'),
    ('page_url', true, ['string'], NULL, NULL, 'http_url', NULL, NULL, NULL, NULL, 'absolute http(s) URL of the page'),
    ('domain', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL,
        'host of page_url, lower-case, without www.'),
    ('element_html', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'markup of the control'),
    ('surrounding_text', true, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        'text around the control (may be empty)'),
    ('observed_alt', true, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        'alt text found on the page, null when absent')
) AS t(field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning);
