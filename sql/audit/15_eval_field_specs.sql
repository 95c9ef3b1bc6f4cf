-- field_specs (expectation, override and eval_judged rows): a planted expectation (expectations.yaml), an override keyed by unit id (overrides.yaml rows, or invalid with its reason), and a scored run's judged line (the judged rules, once); a key not listed is refused (unknown_field), as in every input
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning)
SELECT * FROM (VALUES
    ('expectation', 'loses', false, ['array', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'what a person loses when the text fails (the author''s)'),
    ('expectation', 'polarity', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the author''s polarity of the planted case'),
    ('expectation', 'reference', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'where the case comes from'),
    ('expectation', 'clause1_evidence', false, ['boolean', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'whether the case rests on the rubric''s first clause'),
    ('expectation', 'view', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'the view the element is on'),
    ('expectation', 'type', true, ['string'], ['title', 'heading', 'link', 'image', 'field', 'ident', 'nav'], NULL, NULL, NULL, NULL, NULL, NULL, 'the unit type'),
    ('expectation', 'locator', true, ['object'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'what finds the unit: text, href, alt, src, label, level'),
    ('expectation', 'expected', true, ['string'], ['yes', 'no'], NULL, NULL, NULL, NULL, NULL, NULL, 'the right judgment'),
    ('expectation', 'tier', true, ['string'], ['must', 'calibration'], NULL, NULL, NULL, NULL, NULL, NULL, 'must rows gate promotion; calibration rows are reported'),
    ('expectation', 'unsure_ok', false, ['boolean'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'whether unsure counts as right'),
    ('expectation', 'pattern_group', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'rows a judge must judge alike'),
    ('expectation', 'evidence_contains', false, ['array'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'phrases a rationale should name'),
    ('expectation', 'evidence_absent', false, ['array'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'phrases the row does not show: a rationale naming one invents'),
    ('expectation', 'note', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the author''s note'),
    ('override', 'note', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the author''s note'),
    ('override', 'reference', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'where the override comes from'),
    ('override', 'loses', false, ['array', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'what a person loses'),
    ('override', 'polarity', false, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the case''s polarity'),
    ('override', 'clause1_evidence', false, ['boolean', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'whether it rests on the rubric''s first clause'),
    ('override', 'id', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'the unit id it overrides'),
    ('override', 'expected', false, ['string'], ['yes', 'no'], NULL, NULL, NULL, NULL, NULL, NULL, 'the right judgment'),
    ('override', 'tier', false, ['string'], ['must', 'calibration'], NULL, NULL, NULL, NULL, NULL, NULL, 'must or calibration'),
    ('override', 'unsure_ok', false, ['boolean'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'whether unsure counts as right'),
    ('override', 'invalid', false, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'why the row is excluded from scoring (disclosed)')
) AS t(kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning)
UNION ALL
SELECT 'eval_judged', field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning
FROM field_specs WHERE kind = 'judged';
