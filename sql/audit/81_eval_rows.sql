-- eval_matches: one row per expectation and built unit it matches: same type, the unit shown on the view, and every locator part the expectation names agreeing (text with the unit's name, the DOM approximation's or a field's placeholder; href and src by path; level by the heading's). An expectation nothing matches whose text is a description in parentheses ("(alt empty, decorative ...)", "(empty heading element)", "(no visible text; ...)") is matched again by what the description says and the other parts
--   ord: the expectation
--   id: the unit id
-- eval_rows: one row per scored row: each expectation with the one unit it matched, and each override row naming a unit no expectation matched; an override by unit id wins over the expectation's fields; an unmatched or ambiguous expectation is kept (scored as missed) and an invalid one is kept and excluded, never dropped
--   row_key: e<ord> for an expectation, o:<unit id> for an override row of its own
--   source: the file it comes from
--   line: its line there
--   view: the view
--   type: the unit type
--   unit_id: the unit it scores (NULL when unmatched or ambiguous)
--   problem: unmatched_expectation or ambiguous_expectation (NULL when matched)
--   candidates: the units an ambiguous expectation matched
--   expected: yes or no (the override's when given)
--   tier: must or calibration (the override's when given)
--   unsure_ok: whether unsure counts as right
--   pattern_group: rows to be judged alike
--   evidence_contains: phrases a rationale should name
--   evidence_absent: phrases a rationale must not name
--   reference: the planted failure or technique
--   note: the expectation's note (the override's when given)
--   excluded: why the row is not scored (an override's invalid), NULL when scored
CREATE OR REPLACE VIEW eval_matches AS
WITH pairs AS (
    SELECT e.ord, e.type, e.loc_text, u.id, u.name, u.detail,
        (e.loc_href IS NULL OR NOT regexp_matches(e.loc_href, '^([A-Za-z][A-Za-z0-9+.-]*:|/|#)')
            OR eval_path(u.href) = eval_path(e.loc_href)) AS href_ok,
        (e.loc_src IS NULL OR eval_path(u.href) = eval_path(e.loc_src))
            AND (e.loc_alt IS NULL OR eval_same_text(u.name, e.loc_alt))
            AND (e.loc_label IS NULL OR eval_same_text(u.name, e.loc_label))
            AND (e.loc_level IS NULL OR u.detail = 'h' || e.loc_level) AS rest_ok,
        e.type = 'ident' OR e.loc_text IS NULL OR eval_same_text(u.name, e.loc_text)
            OR eval_same_text(jstr(u.unit, '$.dom_name'), e.loc_text)
            OR (e.type = 'field' AND contains(u.detail, 'placeholder "' || e.loc_text || '"')) AS text_ok
    FROM eval_expectations AS e
    JOIN audit_built_units AS u ON u.type = e.type AND list_contains(u.views, e.view)
),
exact AS (SELECT ord, id FROM pairs WHERE text_ok AND href_ok AND rest_ok),
described AS (  -- a description is read for what it says; an image's href there may be its link's, so it is not required
    SELECT ord, id FROM pairs
    WHERE starts_with(ltrim(loc_text), '(') AND rest_ok AND ord NOT IN (SELECT ord FROM exact)
        AND (type = 'image' OR href_ok)
        AND CASE type
            WHEN 'heading' THEN NOT contains(lower(loc_text), 'empty') OR name = ''
            WHEN 'image' THEN (NOT regexp_matches(lower(loc_text), 'alt empty|empty alt|no alt|alt=""')
                OR name IN ('(alt="")', '(no alt attribute)'))
                AND (NOT contains(lower(loc_text), 'functional') OR contains(detail, 'role:functional'))
                AND (NOT contains(lower(loc_text), 'decorative') OR contains(detail, 'decorative'))
            ELSE true END
)
SELECT ord, id FROM exact UNION ALL SELECT ord, id FROM described;

CREATE OR REPLACE VIEW eval_rows AS
WITH m AS (SELECT ord, count(*) AS n, min(id) AS id, list(id ORDER BY id) AS ids FROM eval_matches GROUP BY ord),
o AS (
    SELECT source, line, jstr(doc, '$.id') AS id, jstr(doc, '$.expected') AS expected, jstr(doc, '$.tier') AS tier,
        jbool(doc, '$.unsure_ok') AS unsure_ok, jstr(doc, '$.note') AS note, jstr(doc, '$.reference') AS reference,
        jstr(doc, '$.invalid') AS invalid, json_type(doc, '$.pattern_group') IS NOT NULL AS has_group,
        jstr(doc, '$.pattern_group') AS pattern_group,
        CAST(json_transform(doc -> '$.evidence_contains', '["VARCHAR"]') AS VARCHAR[]) AS evidence_contains,
        CAST(json_transform(doc -> '$.evidence_absent', '["VARCHAR"]') AS VARCHAR[]) AS evidence_absent
    FROM jsonl_records WHERE kind = 'override' AND is_object
),
ov AS (  -- the last override line of a unit wins, field by field
    SELECT id, arg_max(expected, {'s': source, 'l': line}) FILTER (WHERE expected IS NOT NULL) AS expected,
        arg_max(tier, {'s': source, 'l': line}) FILTER (WHERE tier IS NOT NULL) AS tier,
        arg_max(unsure_ok, {'s': source, 'l': line}) FILTER (WHERE unsure_ok IS NOT NULL) AS unsure_ok, arg_max(note,
            {'s': source, 'l': line}) FILTER (WHERE note IS NOT NULL) AS note,
        arg_max(reference, {'s': source, 'l': line}) FILTER (WHERE reference IS NOT NULL) AS reference, arg_max(invalid,
            {'s': source, 'l': line}) FILTER (WHERE invalid IS NOT NULL) AS invalid,
        bool_or(has_group) AS has_group, arg_max(pattern_group, {'s': source,
            'l': line}) FILTER (WHERE pattern_group IS NOT NULL) AS pattern_group,
        arg_max(evidence_contains, {'s': source,
            'l': line}) FILTER (WHERE evidence_contains IS NOT NULL) AS evidence_contains,
        arg_max(evidence_absent, {'s': source,
            'l': line}) FILTER (WHERE evidence_absent IS NOT NULL) AS evidence_absent,
        min({'s': source, 'l': line}) AS first_at
    FROM o WHERE id IS NOT NULL GROUP BY id
),
expectation_rows AS (
    SELECT 'e' || e.ord AS row_key, e.source, e.line, e.view, e.type,
        CASE WHEN m.n = 1 THEN m.id END AS unit_id,
        CASE WHEN m.n IS NULL THEN 'unmatched_expectation' WHEN m.n > 1 THEN 'ambiguous_expectation' END AS problem,
        CASE WHEN m.n > 1 THEN m.ids END AS candidates,
        e.expected, e.tier, e.unsure_ok, e.pattern_group, e.evidence_contains, e.evidence_absent, e.reference, e.note
    FROM eval_expectations AS e LEFT JOIN m USING (ord)
),
with_overrides AS (
    SELECT r.row_key, r.source, r.line, r.view, r.type, r.unit_id, r.problem, r.candidates,
        coalesce(v.expected, r.expected) AS expected, coalesce(v.tier, r.tier) AS tier,
        coalesce(v.unsure_ok, r.unsure_ok) AS unsure_ok,
        CASE WHEN v.has_group THEN v.pattern_group ELSE r.pattern_group END AS pattern_group,
        coalesce(v.evidence_contains, r.evidence_contains) AS evidence_contains,
        coalesce(v.evidence_absent, r.evidence_absent) AS evidence_absent,
        coalesce(v.reference, r.reference) AS reference, coalesce(v.note, r.note) AS note, v.invalid AS excluded
    FROM expectation_rows AS r LEFT JOIN ov AS v ON v.id = r.unit_id
),
override_rows AS (  -- an override naming a unit no expectation matched is a row of its own when it says what is right
    SELECT 'o:' || v.id AS row_key, v.first_at.s AS source, v.first_at.l AS line, u.views[1] AS view, u.type,
        v.id AS unit_id,
        CASE WHEN u.id IS NULL THEN 'unmatched_expectation' END AS problem, CAST(NULL AS VARCHAR[]) AS candidates,
        v.expected, coalesce(v.tier, 'must') AS tier, coalesce(v.unsure_ok, false) AS unsure_ok, v.pattern_group,
        coalesce(v.evidence_contains, []) AS evidence_contains, coalesce(v.evidence_absent, []) AS evidence_absent,
        v.reference, v.note, v.invalid AS excluded
    FROM ov AS v LEFT JOIN audit_built_units AS u ON u.id = v.id
    WHERE v.id NOT IN (SELECT unit_id FROM expectation_rows WHERE unit_id IS NOT NULL) AND v.expected IS NOT NULL
)
SELECT * FROM with_overrides
UNION ALL SELECT * FROM override_rows
ORDER BY source, line, row_key;
