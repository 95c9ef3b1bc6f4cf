-- audit_calibration: one record per product and type at each merge: second-reader agreement, unsure rate, clean-but-no and flagged-but-yes rates, and the ratifier's overturn rate from the ledger
--   product: product
--   type: unit type
--   units: units
--   judged: units with a draft judgment
--   spot_checked: units a second reader checked
--   second_reader_agreement: share of spot checks that agreed
--   unsure_rate: share of drafts that are unsure
--   clean_but_no_rate: share of drafts that are no on units without a non-informational flag
--   flagged_but_yes_rate: share of drafts that are yes on units with a non-informational flag
--   ratified: units a person ratified (wcag)
--   ratifier_overturn_rate: share of ratified units whose ratified judgment differs from the session draft
CREATE OR REPLACE VIEW audit_calibration AS
WITH rows AS (SELECT d.*, d.id IN (SELECT id FROM audit_decisive_flags) AS is_flagged, s.spot_check AS spot
    FROM audit_draft_rows AS d
         LEFT JOIN audit_spot_checks AS s USING (id))
SELECT product, type, count(*) AS units,
    count(*) FILTER (WHERE draft_judgment <> '') AS judged,
    count(*) FILTER (WHERE spot IS NOT NULL) AS spot_checked,
    round(count(*) FILTER (WHERE spot = 'agree') / nullif(count(*) FILTER (WHERE spot IS NOT NULL), 0),
        4) AS second_reader_agreement,
    round(count(*) FILTER (WHERE draft_judgment = 'unsure') / nullif(count(*) FILTER (WHERE draft_judgment <> ''), 0),
        4) AS unsure_rate,
    round(count(*) FILTER (WHERE draft_judgment = 'no'
        AND NOT is_flagged) / nullif(count(*) FILTER (WHERE draft_judgment <> ''), 0), 4) AS clean_but_no_rate,
    round(count(*) FILTER (WHERE draft_judgment = 'yes'
        AND is_flagged) / nullif(count(*) FILTER (WHERE draft_judgment <> ''), 0), 4) AS flagged_but_yes_rate,
    count(*) FILTER (WHERE status = 'RATIFIED') AS ratified,
    round(count(*) FILTER (WHERE status = 'RATIFIED' AND session_draft_judgment <> ''
        AND ratified_judgment <> session_draft_judgment)
        / nullif(count(*) FILTER (WHERE status = 'RATIFIED' AND session_draft_judgment <> ''), 0),
            4) AS ratifier_overturn_rate
FROM rows
GROUP BY product, type
ORDER BY product, list_position(['title', 'heading', 'field', 'link', 'image', 'ident', 'finding'], type);
