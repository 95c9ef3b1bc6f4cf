-- audit_draft_tally: the merge's tally, one row per product and unit type in the order rows are read: how many rows the session judged yes, no or unsure (a spot check's overturn counts as the judgment it gave), how many are unjudged, how many need a person, were spot-checked, overturned, and ratified
--   product: product
--   type: unit type
--   yes: rows whose session judgment is yes
--   no: rows whose session judgment is no
--   unsure: rows whose session judgment is unsure
--   missing: rows without a judgment
--   needs_human: rows marked as needing a person
--   spot_checked: rows a spot check looked at
--   overturned: rows a spot check overturned
--   ratified: rows a named person ratified
CREATE OR REPLACE VIEW audit_draft_tally AS
SELECT product, type,
    count(*) FILTER (WHERE session_draft_judgment = 'yes') AS yes,
    count(*) FILTER (WHERE session_draft_judgment = 'no') AS no,
    count(*) FILTER (WHERE session_draft_judgment = 'unsure') AS unsure,
    count(*) FILTER (WHERE coalesce(session_draft_judgment, '') = '') AS missing,
    count(*) FILTER (WHERE needs_human = 'true') AS needs_human,
    count(*) FILTER (WHERE coalesce(spot_check, '') <> '') AS spot_checked,
    count(*) FILTER (WHERE starts_with(spot_check, 'overturn')) AS overturned,
    count(*) FILTER (WHERE status = 'RATIFIED') AS ratified
FROM audit_draft_rows GROUP BY product, type ORDER BY min(sort_ord);
