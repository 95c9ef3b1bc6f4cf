-- field_specs (item rows of the round profiles): the fields of a corpus item in the round format (round-v1, round-v2); each row is one field rule
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning)
SELECT 'item', * FROM (VALUES
    ('id', true, ['string'], NULL, 'fi-\d{4}', NULL, NULL, NULL, NULL, NULL, 'item id, fi-NNNN, unique'),
    ('status', true, ['string'], ['candidate', 'accepted', 'needs-revision', 'rejected'], NULL, NULL, NULL, NULL, NULL, NULL, 'review status'),
    ('round_added', true, ['integer'], NULL, NULL, NULL, NULL, NULL, 1, NULL, 'round in which the item was added'),
    ('image_url', true, ['string', 'null'], NULL, NULL, 'http_url', NULL, NULL, NULL, NULL, 'absolute http(s) URL of the image, or null'),
    ('image_file', true, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'local copy corpus/images/<id>.<ext>, or null'),
    ('image_sha256', true, ['string', 'null'], NULL, '[0-9a-f]{64}', NULL, NULL, NULL, NULL, NULL, 'sha256 of the local copy, or null'),
    ('implementation', true, ['string'], ['img', 'inline-svg', 'icon-font', 'sprite', 'css-background', 'input-image', 'area'], NULL, NULL, NULL, NULL, NULL, NULL, 'how the image is drawn'),
    ('element_role', true, ['string'], ['link', 'button', 'input-image', 'area', 'custom', 'glyph'], NULL, NULL, NULL, NULL, NULL, NULL, 'role of the enclosing control'),
    ('destination', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'where the control leads or what it does'),
    ('observed_alt_verdict', true, ['string'], ['correct', 'wrong', 'missing', 'empty-appropriate', 'empty-inappropriate'], NULL, NULL, NULL, NULL, NULL, NULL, 'verdict on the observed alt'),
    ('gold_alt', true, ['string'], NULL, NULL, NULL, NULL, 125, NULL, NULL, 'gold-standard alt text (may be empty)'),
    ('gold_alt_rationale', true, ['string'], NULL, NULL, NULL, 40, NULL, NULL, NULL, 'why the gold alt is right'),
    ('gold_alt_passes', true, ['array'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'independent passes {author, alt, rationale}'),
    ('adjudication', true, ['string', 'null'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'adjudication note settling disagreeing passes, or null'),
    ('difficulty', true, ['string'], ['trivial', 'standard', 'ambiguous'], NULL, NULL, NULL, NULL, NULL, NULL, 'difficulty of the item'),
    ('dual_purpose', true, ['boolean'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'whether the image is both informative and functional'),
    ('leaky', true, ['boolean'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'whether the answer is recoverable without judgment'),
    ('leakage_check', true, ['string'], NULL, NULL, NULL, 20, NULL, NULL, NULL, 'how leakage was checked'),
    ('retrieved', true, ['string'], NULL, NULL, 'date', NULL, NULL, NULL, NULL, 'calendar date the page was retrieved, YYYY-MM-DD'),
    ('provenance_note', true, ['string'], NULL, NULL, 'nonblank', NULL, NULL, NULL, NULL, 'where the item comes from and its licence'),
    ('notes', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'free notes (optional)')
) AS t(field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning);
