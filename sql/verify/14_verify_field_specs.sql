-- field_specs (verify_claim rows): the fields of an imported claim (a measurement line carries more, all known here)
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int,
    meaning)
SELECT 'verify_claim', * FROM (VALUES
    ('claim', true, ['string'], NULL, NULL, 'nonblank', 12, NULL, NULL, NULL, 'one concrete, falsifiable statement'),
    ('kind', true, ['string'], ['spatial', 'visual', 'completion', 'other'], NULL, NULL, NULL, NULL, NULL, NULL,
        'what the claim verifies'),
    ('significant', false, ['boolean'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'whether it is a significant claim'),
    ('inputs', true, ['array'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'inputs {role, path, sha256}'),
    ('verifier', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'a tool or an external model id'),
    ('result', true, ['string'], ['PASS', 'FAIL', 'INSUFFICIENT'], NULL, NULL, NULL, NULL, NULL, NULL, 'the verdict'),
    ('evidence', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'the evidence, for every result'),
    ('region', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'measured region'),
    ('selector', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'its selector'),
    ('reference_box', false, ['object'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the reference box'),
    ('box', false, ['object', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the measured box'),
    ('drift', false, ['object', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'edge drift in px'),
    ('clipped', false, ['boolean', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'whether text is clipped'),
    ('overlaps', false, ['array'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'regions it newly overlaps'),
    ('escapes', false, ['boolean', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'whether it escapes the page'),
    ('url', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the page measured'),
    ('viewport', false, ['object'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the viewport'),
    ('screenshot', false, ['object'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the candidate screenshot'),
    ('measured_utc', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'when it was measured'),
    ('imported_utc', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'when it was imported')
) AS t(field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning);
