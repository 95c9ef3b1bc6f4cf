-- field_specs (judged, spot_check and unit rows): the fields of a judge's returned batch line, of a spot check, and of a built unit
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int,
    meaning)
SELECT * FROM (VALUES
    ('judged', 'id', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'the judged unit id'),
    ('judged', 'judgment', true, ['string'], ['yes', 'no', 'unsure'], NULL, NULL, NULL, NULL, NULL, NULL,
        'does the text do its job'),
    ('judged', 'confidence', true, ['string'], ['high', 'medium', 'low'], NULL, NULL, NULL, NULL, NULL, NULL,
        'the judge''s confidence'),
    ('judged', 'rationale', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL,
        'why, in at most 25 words'),
    ('judged', 'fix', true, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        'the fix, in at most 20 words; empty when yes'),
    ('judged', 'needs_human', true, ['boolean'], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        'whether a person must look'),
    ('judged', 'drafted_by', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL,
        'who or what drafted the judgment'),
    ('spot_check', 'id', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'the spot-checked unit id'),
    ('spot_check', 'spot_check', true, ['string'], ['agree', 'overturn'], NULL, NULL, NULL, NULL, NULL, NULL,
        'agree with the draft or overturn it'),
    ('spot_check', 'judgment', false, ['string'], ['yes', 'no', 'unsure'], NULL, NULL, NULL, NULL, NULL, NULL,
        'the judgment an overturn puts in its place'),
    ('spot_check', 'note', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the checker''s note'),
    ('spot_check', 'checked_by', false, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL,
        'who or what checked the draft (a person, or the model id of a second reader)')
) AS t(kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning);
