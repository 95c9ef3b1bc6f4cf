-- audit_draft_rows: one row per unit for draft-judgments.csv, in the sort ratifiers read (product; title, heading, field, link, image, ident; no, unsure, yes, unjudged; widest fan-out first). Status travels on every row: a draft is never a verdict
--   sort_ord: the row's place in the CSV
--   status: DRAFT_NOT_RATIFIED until a named person signs the row
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
--   needs_human: whether the judge asked for a person (empty when unjudged)
--   drafted_by: who or what drafted the judgment
--   spot_check: agree or overturn→judgment, with the checker's note
--   session_draft_judgment: the overturned judgment where a spot check overturned, else the draft
CREATE OR REPLACE VIEW audit_draft_rows AS
WITH rows AS (
    SELECT u.ord, 'DRAFT_NOT_RATIFIED' AS status, u.id, u.product, u.type, u.sc, u.view_count, u.views, u.name, u.detail,
        u.href, u.context, u.landmark, u.selector, u.visible, u.flags,
        coalesce(j.judgment, '') AS draft_judgment, coalesce(j.confidence, '') AS confidence,
        coalesce(j.rationale, '') AS rationale, coalesce(j.fix, '') AS fix,
        CASE WHEN j.judgment IS NULL THEN '' WHEN j.needs_human THEN 'true' ELSE 'false' END AS needs_human,
        coalesce(j.drafted_by, CASE WHEN j.judgment IS NOT NULL THEN 'unknown' END, '') AS drafted_by,
        CASE WHEN s.id IS NULL THEN ''
             ELSE s.spot_check || CASE WHEN s.spot_check = 'overturn' THEN '→' || s.judgment ELSE '' END
                  || CASE WHEN coalesce(s.note, '') <> '' THEN ': ' || s.note ELSE '' END END AS spot_check,
        CASE WHEN s.spot_check = 'overturn' AND s.judgment IS NOT NULL THEN s.judgment ELSE coalesce(j.judgment, '') END
            AS session_draft_judgment
    FROM audit_built_units AS u
    LEFT JOIN audit_judgments AS j USING (id)
    LEFT JOIN audit_spot_checks AS s USING (id)
)
SELECT row_number() OVER (ORDER BY product, list_position(['title', 'heading', 'field', 'link', 'image', 'ident'], type),
        list_position(['no', 'unsure', 'yes', ''], session_draft_judgment), view_count DESC, ord) AS sort_ord,
    * EXCLUDE (ord)
FROM rows
ORDER BY sort_ord;
