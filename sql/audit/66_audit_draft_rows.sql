-- audit_draft_rows: one row per unit for draft-judgments.csv, in the sort ratifiers read (product; title, heading, field, link, image, ident; no, unsure, yes, unjudged; widest fan-out first). Status travels on every row: a draft is never a verdict
--   sort_ord: the row's place in the CSV
--   status: DRAFT_NOT_RATIFIED until a named person signs the row yes or no (a signed unsure settles nothing: the row stays open)
--   id: unit id
--   product: product
--   type: unit type
--   sc: WCAG success criterion
--   view_count: number of distinct views
--   views: the views
--   name: name
--   detail: detail
--   href: href or src
--   context: context
--   landmark: landmark
--   selector: CSS path
--   visible: whether any occurrence was rendered
--   flags: flags
--   draft_judgment: the judge's draft (empty when unjudged)
--   confidence: the judge's confidence
--   rationale: the judge's rationale
--   fix: the judge's fix
--   needs_human: whether a person must look: the judge asked, or the name came from a DOM approximation (empty when unjudged)
--   drafted_by: who or what drafted the judgment
--   spot_check: agree or overturn→judgment, with the checker's note
--   session_draft_judgment: the overturned judgment where a spot check overturned, else the draft
--   ratified_by: who signed the wcag decision
--   ratified_judgment: the ratified judgment
--   ratifier_note: the ratifier's note
--   ratified_fix: the fix the ratifier asks for (a ruling's --fix, a review's fix)
--   ratified_utc: when
--   ruling: the family ruling that decided the row
--   ratification_state: RATIFIED, DRAFT (incomplete or withdrawn), or empty when nobody has decided
--   ratification_decision_id: decision id in force
--   ratification_unit_sha256: its pin
--   ratification_pin_status: pinned or legacy_unpinned
--   ratification_date_precision: timestamp or day
--   ratification_diagnostic: what a draft lacks, retries, supersessions
--   client_rules: client rules from standards.jsonl
--   client_result: client result from standards.jsonl
--   client_note: client note from standards.jsonl
--   client_ratified_by: who signed the client decision
--   client_ratified_result: the ratified client result
--   client_ratified_rules: the client rules the decision was taken against
--   client_ratifier_note: the client ratifier's note
--   client_ratification_state: RATIFIED, DRAFT or empty
--   client_ratification_decision_id: client decision id in force
--   client_ratification_unit_sha256: its pin
--   client_ratification_pin_status: pinned or legacy_unpinned
--   client_ratification_date_precision: timestamp or day
--   client_ratification_diagnostic: what a client draft lacks, retries, supersessions
CREATE OR REPLACE VIEW audit_draft_rows AS
WITH rows AS (
    SELECT u.ord, CASE WHEN w.state = 'RATIFIED' AND w.ratified_judgment <> 'unsure' THEN 'RATIFIED'
        ELSE 'DRAFT_NOT_RATIFIED' END AS status, u.id, u.product, u.type, u.sc, u.view_count, u.views, u.name, u.detail,
        u.href, u.context, u.landmark, u.selector, u.visible, u.flags,
        coalesce(j.judgment, '') AS draft_judgment, coalesce(j.confidence, '') AS confidence,
        coalesce(j.rationale, '') AS rationale, coalesce(j.fix, '') AS fix,
        -- a judged row whose name is only the DOM approximation's guess (aria-labelledby text, an image's alt inside a
        -- link or heading, a title) needs a ratifier to check the name in a browser; a name the browser gave does not
        CASE WHEN j.judgment IS NULL THEN ''
             WHEN j.needs_human
                  OR (u.name_approximated AND u.type = 'link' AND split_part(u.detail, ';', 1) IN ('aria-labelledby',
                      'img-alt', 'title'))
                  OR (u.name_approximated AND u.type = 'heading'
                      AND list_has_any(u.flags, ['name_from_aria-labelledby', 'name_from_img-alt', 'name_from_title']))
             THEN 'true' ELSE 'false' END AS needs_human,
        coalesce(j.drafted_by, CASE WHEN j.judgment IS NOT NULL THEN 'unknown' END, '') AS drafted_by,
        CASE WHEN s.id IS NULL THEN ''
             ELSE s.spot_check || CASE WHEN s.spot_check = 'overturn' THEN '→' || s.judgment ELSE '' END
                  || CASE WHEN coalesce(s.note, '') <> '' THEN ': ' || s.note ELSE '' END END AS spot_check,
        CASE WHEN s.spot_check = 'overturn' AND s.judgment IS NOT NULL THEN s.judgment ELSE coalesce(j.judgment, '') END
            AS session_draft_judgment,
        coalesce(w.ratified_by, '') AS ratified_by, coalesce(w.ratified_judgment, '') AS ratified_judgment,
        coalesce(w.ratifier_note, '') AS ratifier_note, coalesce(w.fix, '') AS ratified_fix, coalesce(w.ratified_utc,
            '') AS ratified_utc,
        coalesce(w.ruling, '') AS ruling, coalesce(w.state, '') AS ratification_state,
        coalesce(w.decision_id, '') AS ratification_decision_id, coalesce(w.unit_sha256,
            '') AS ratification_unit_sha256,
        coalesce(w.pin_status, '') AS ratification_pin_status, coalesce(w.date_precision,
            '') AS ratification_date_precision,
        coalesce(w.diagnostic, '') AS ratification_diagnostic,
        coalesce(st.client_rules, '') AS client_rules, coalesce(st.client_result, '') AS client_result,
        coalesce(st.client_note, '') AS client_note,
        coalesce(c.ratified_by, '') AS client_ratified_by, coalesce(c.ratified_client_result,
            '') AS client_ratified_result,
        CASE WHEN c.id IS NOT NULL THEN coalesce(st.client_rules, '') ELSE '' END AS client_ratified_rules,
        coalesce(c.ratifier_note, '') AS client_ratifier_note, coalesce(c.state, '') AS client_ratification_state,
        coalesce(c.decision_id, '') AS client_ratification_decision_id,
        coalesce(c.unit_sha256, '') AS client_ratification_unit_sha256,
        coalesce(c.pin_status, '') AS client_ratification_pin_status,
        coalesce(c.date_precision, '') AS client_ratification_date_precision,
        coalesce(c.diagnostic, '') AS client_ratification_diagnostic
    FROM audit_built_units AS u
    LEFT JOIN audit_judgments AS j USING (id)
    LEFT JOIN audit_spot_checks AS s USING (id)
    LEFT JOIN (SELECT * FROM ratification_effective WHERE scope = 'wcag') AS w USING (id)
    LEFT JOIN (SELECT * FROM ratification_effective WHERE scope = 'client') AS c USING (id)
    LEFT JOIN audit_standards AS st USING (id)
)
SELECT row_number() OVER (ORDER BY product, list_position(['title', 'heading', 'field', 'link', 'image', 'ident',
    'finding'], type),
        list_position(['no', 'unsure', 'yes', ''], session_draft_judgment), view_count DESC, ord) AS sort_ord,
    * EXCLUDE (ord)
FROM rows
ORDER BY sort_ord;
