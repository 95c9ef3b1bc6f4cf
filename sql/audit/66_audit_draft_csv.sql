-- audit_draft_csv: the columns of draft-judgments.csv (and of each product's), in the reference's order: one row per draft row (the ratifier's fix is in the workbook and the JSON, not in this format)
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
CREATE OR REPLACE VIEW audit_draft_csv AS
SELECT status, id, product, type, sc, view_count, views, name, detail, href, context, landmark, selector, visible,
    flags, draft_judgment, confidence, rationale, fix, needs_human, drafted_by, spot_check, session_draft_judgment,
    ratified_by, ratified_judgment, ratifier_note, ratified_utc, ruling, ratification_state,
    ratification_decision_id, ratification_unit_sha256, ratification_pin_status, ratification_date_precision,
    ratification_diagnostic, client_rules, client_result, client_note, client_ratified_by, client_ratified_result,
    client_ratified_rules, client_ratifier_note, client_ratification_state, client_ratification_decision_id,
    client_ratification_unit_sha256, client_ratification_pin_status, client_ratification_date_precision,
    client_ratification_diagnostic
FROM audit_draft_rows
ORDER BY sort_ord;
