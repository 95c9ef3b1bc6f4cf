-- field_specs (item rows of the profiles with accessible names, round-v2 and harvest): what the control announces and where that comes from
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int,
    meaning)
SELECT 'item', * FROM (VALUES
    ('accessible_name', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL,
        'what a screen reader announces for the control; an image whose control announces nothing is not collected'),
    ('accessible_name_source', true, ['string'], ['alt', 'aria-label', 'aria-labelledby', 'title', 'svg-title',
        'control-text'], NULL, NULL, NULL, NULL, NULL, NULL, 'where the accessible name comes from')
) AS t(field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning);
