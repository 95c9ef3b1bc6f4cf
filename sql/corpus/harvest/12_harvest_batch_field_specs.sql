-- field_specs (batch rows): the fields of a review verdict in review/batch-NN.jsonl
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int,
    meaning)
SELECT 'batch', * FROM (VALUES
    ('item_id', true, ['string'], NULL, 'fi-\d{4,}', NULL, NULL, NULL, NULL, NULL, 'the reviewed item'),
    ('verdict', true, ['string'], ['keep', 'drop'], NULL, NULL, NULL, NULL, NULL, NULL, 'keep or drop'),
    ('alt_quality', true, ['string'], ['good', 'weak', 'wrong'], NULL, NULL, NULL, NULL, NULL, NULL,
        'the shipped alt: good, weak or wrong'),
    ('reason', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'why, in prose'),
    ('subtype', true, ['string', 'null'], (SELECT list(subtype ORDER BY category, subtype) FROM corpus_subtypes), NULL,
        NULL, NULL, NULL, NULL, NULL, 'a corrected sub-type, or null')
) AS t(field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning);
