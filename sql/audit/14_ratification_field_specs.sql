-- field_specs (ratification rows): the fields of a ratification ledger record; every field is a string
INSERT INTO field_specs (kind, field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int,
    meaning)
SELECT 'ratification', * FROM (VALUES
    ('id', true, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the unit id'),
    ('scope', false, ['string'], ['wcag', 'client'], NULL, NULL, NULL, NULL, NULL, NULL, 'wcag (default) or client'),
    ('ratified_by', false, ['string'], NULL, NULL, 'person', NULL, NULL, NULL, NULL, 'the named person who decides'),
    ('ratified_judgment', false, ['string'], ['yes', 'no', 'unsure', ''], NULL, NULL, NULL, NULL, NULL, NULL,
        'yes, no or unsure (wcag scope only)'),
    ('ratified_client_result', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        'the client-standard result (client scope only)'),
    ('ratifier_note', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the ratifier''s note'),
    ('ratified_utc', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        'when, as a UTC timestamp ending in Z'),
    ('ruling', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the family ruling that decided the row'),
    ('unit_sha256', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'pin: sha256 of the unit as built'),
    ('decision_id', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the record''s content digest'),
    ('supersedes', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'the decision id this record replaces'),
    ('supersession_reason', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'why it replaces it'),
    ('fix', false, ['string'], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        'the fix the ratifier asks for (it reaches the receipts)')
) AS t(field, required, types, allowed, pattern, format, min_len, max_len, min_int, max_int, meaning);
