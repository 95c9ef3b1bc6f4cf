-- verify_claim_violations: problems in claims to import: the field rules, claims too broad to falsify, and inputs that are not {role, path, sha256} with a known role
--   source: file path
--   line: 1-based line number
--   record_id: the claim's region or verifier
--   field: the field at fault
--   code: machine-readable violation code
--   message: what is wrong, in words
CREATE OR REPLACE VIEW verify_claim_violations AS
WITH claims AS (SELECT source, line, doc, jstr(doc, '$.claim') AS claim FROM jsonl_records WHERE kind = 'verify_claim'
    AND is_object),
inputs AS (
    SELECT source, line, e.key AS k, e.value AS v FROM claims, json_each(claims.doc -> '$.inputs') AS e
    WHERE json_type(claims.doc, '$.inputs') = 'ARRAY'
)
SELECT source, line, record_id, field, code, message FROM field_violations WHERE kind = 'verify_claim'
UNION ALL
SELECT source, line, NULL, 'claim', 'broad_claim', '"' || claim
    || '" is too broad to falsify; state one concrete thing a check can refute'
FROM claims WHERE claim IS NOT NULL AND EXISTS (SELECT 1 FROM verify_broad_claims AS b
    WHERE regexp_matches(lower(trim(claim)), b.phrase))
UNION ALL
SELECT source, line, NULL, 'inputs', 'invalid_value', 'a claim names at least one input'
FROM claims WHERE json_type(doc, '$.inputs') = 'ARRAY' AND json_array_length(doc, '$.inputs') = 0
UNION ALL
SELECT source, line, NULL, 'inputs', 'invalid_value',
    'input ' || (CAST(k AS INTEGER) + 1)
        || ' must be {role, path, sha256} with role one of reference, candidate screenshot, code, DOM, measurement, binding, previous checkpoint and a 64-hex sha256'
FROM inputs
WHERE json_type(v) <> 'OBJECT' OR list_sort(json_keys(v)) <> ['path', 'role', 'sha256']
    OR coalesce(v ->> '$.role', '') NOT IN ('reference', 'candidate screenshot', 'code', 'DOM', 'measurement',
        'binding', 'previous checkpoint')
    OR coalesce(trim(v ->> '$.path'), '') = '' OR NOT coalesce(regexp_full_match(v ->> '$.sha256', '[0-9a-f]{64}'),
        false);
