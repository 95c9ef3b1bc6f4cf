-- field_specs (review and second_pass rows): the fields of round review records and blind second-pass answers
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int,
    meaning)
SELECT * FROM (VALUES
    ('review', 'item_id', true, ['string'], NULL, 'fi-\d{4}', NULL, NULL, NULL, NULL, NULL, 'the reviewed item'),
    ('review', 'round', true, ['integer'], NULL, NULL, NULL, NULL, NULL, 1, NULL,
        'review round, equal to the file''s number'),
    ('review', 'verdict', true, ['string'], ['accept', 'revise', 'reject'], NULL, NULL, NULL, NULL, NULL, NULL,
        'the reviewer''s verdict'),
    ('review', 'reason_codes', true, ['array'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'one or more reason codes'),
    ('review', 'evidence', true, ['string'], NULL, NULL, NULL, 20, NULL, NULL, NULL, 'what the reviewer checked'),
    ('review', 'required_change', true, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        'the change a revise verdict asks for'),
    ('review', 'blocking', true, ['boolean'], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        'whether the finding blocks acceptance'),
    ('second_pass', 'item_id', true, ['string'], NULL, 'fi-\d{4}', NULL, NULL, NULL, NULL, NULL,
        'the item answered blind'),
    ('second_pass', 'alt', true, ['string'], NULL, NULL, NULL, NULL, 125, NULL, NULL, 'the blind pass''s alt text'),
    ('second_pass', 'rationale', true, ['string'], NULL, NULL, NULL, 20, NULL, NULL, NULL,
        'why, in the blind pass''s words')
) AS t(kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning);
