-- ratification_violations: every error in the ratification ledger, one code per problem; any row refuses the merge before any output changes
--   source: ledger file path
--   line: 1-based line number
--   record_id: unit id
--   field: the field at fault
--   code: invalid_json, invalid_record, invalid_type, unknown_field, invalid_scope, scope_field_mismatch, unknown_id, invalid_enum, invalid_timestamp, invalid_unit_revision, unit_revision_mismatch, decision_id_mismatch, orphan_supersession, invalid_supersession or conflicting_decision
--   message: what is wrong, in words
CREATE OR REPLACE VIEW ratification_violations AS
SELECT source, line, record_id, field, code, message FROM (
    SELECT source, line, record_id, field,
        CASE WHEN code = 'not_an_object' THEN 'invalid_record'
             WHEN code = 'missing_field' THEN 'invalid_record'
             WHEN code = 'invalid_value' AND field = 'scope' THEN 'invalid_scope'
             WHEN code = 'invalid_value' THEN 'invalid_enum'
             ELSE code END AS code, message
    FROM field_violations WHERE kind = 'ratification'
    UNION ALL
    SELECT source, line, id, CASE WHEN scope = 'wcag' THEN 'ratified_client_result' ELSE 'ratified_judgment' END,
        'scope_field_mismatch',
        CASE WHEN scope = 'wcag' THEN 'a wcag decision carries ratified_judgment, not ratified_client_result'
             ELSE 'a client decision carries ratified_client_result, not ratified_judgment' END
    FROM ratification_records
    WHERE (scope = 'wcag' AND has_client_field) OR (scope = 'client' AND has_judgment_field)
    UNION ALL
    SELECT source, line, id, 'id', 'unknown_id', 'unit ' || id || ' is not in judgment-units.json'
    FROM ratification_records WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM unit_pins)
    UNION ALL
    SELECT source, line, id, 'ratified_utc', 'invalid_timestamp',
        '"' || ratified_utc || '" is not a real UTC timestamp ending in Z'
            || CASE WHEN regexp_matches(ratified_utc, '^\d{4}-\d{2}-\d{2}$')
                THEN ' (a plain date is accepted only on legacy records without pin or supersession fields)' ELSE '' END
    FROM ratification_records WHERE ratified_utc <> '' AND NOT date_valid
    UNION ALL
    SELECT source, line, id, 'unit_sha256', 'invalid_unit_revision', 'unit_sha256 must be sha256:<64 lowercase hex>'
    FROM ratification_records WHERE unit_sha256 <> '' AND NOT regexp_full_match(unit_sha256, 'sha256:[0-9a-f]{64}')
    UNION ALL
    SELECT r.source, r.line, r.id, 'unit_sha256', 'unit_revision_mismatch',
        'the pin no longer matches unit ' || r.id || ' as built (now ' || p.unit_sha256 || ')'
    FROM ratification_records AS r JOIN unit_pins AS p USING (id)
    WHERE regexp_full_match(r.unit_sha256, 'sha256:[0-9a-f]{64}') AND r.unit_sha256 <> p.unit_sha256
    UNION ALL
    SELECT source, line, id, 'decision_id', 'decision_id_mismatch',
        'decision_id ' || supplied_decision_id || ' is not the record''s digest ' || decision_id
    FROM ratification_records WHERE supplied_decision_id <> '' AND supplied_decision_id <> decision_id
    UNION ALL
    SELECT c.source, c.line, c.id, CASE c.change WHEN 'conflicting_decision' THEN 'id' ELSE 'supersedes' END, c.change,
        CASE c.change
            WHEN 'orphan_supersession' THEN 'the first decision for ' || c.scope || ':' || c.id
                || ' cannot supersede anything'
            WHEN 'conflicting_decision' THEN 'a different decision for ' || c.scope || ':' || c.id
                || ' must name the one it replaces ('
                || c.previous_decision_id || ') in supersedes, with a supersession_reason'
            ELSE CASE WHEN trim(c.supersession_reason) = '' AND c.supersedes = c.previous_decision_id
                      THEN 'a supersession needs a non-blank supersession_reason'
                      WHEN c.supersedes IN (SELECT decision_id FROM ratification_chain AS x WHERE x.scope = c.scope
                          AND x.id = c.id AND x.line > c.line)
                      THEN 'supersedes names a later decision (' || c.supersedes || '); it must name the one in force: '
                          || c.previous_decision_id
                      ELSE 'supersedes ' || c.supersedes || ' is not the decision in force: '
                          || c.previous_decision_id END END
    FROM (SELECT ch.*, r.source FROM ratification_chain AS ch JOIN ratification_records AS r USING (line, scope,
        id)) AS c
    WHERE c.change IN ('orphan_supersession', 'conflicting_decision', 'invalid_supersession')
)
ORDER BY source, line, code;
