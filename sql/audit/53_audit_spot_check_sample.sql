-- audit_spot_check_sample: the judged units a person should spot-check, with the reason: every unsure, every unit whose flags and draft disagree (flagged but yes, clean but no; informational flags never count as flagged), and a reproducible 10% of the rest
--   reason: unsure, flagged-but-yes, clean-but-no or random
--   ord: the unit's place in judgment-units.json
--   id: unit id
--   type: unit type
--   sc: WCAG success criterion
--   product: product
--   views: number of views
--   name: name
--   detail: detail
--   href: href or src
--   context: context
--   flags: flags
--   draft: the drafted judgment
--   confidence: the judge's confidence
--   rationale: the judge's rationale
--   fix: the judge's fix
CREATE OR REPLACE VIEW audit_spot_check_sample AS
WITH judged AS (
    SELECT u.*, j.judgment AS draft, j.confidence, j.rationale, j.fix,
        u.id IN (SELECT id FROM audit_decisive_flags) AS flagged,
        CAST('0x' || substr(sha256('spot|' || CASE WHEN (SELECT sample_seed FROM jfi_run) <> ''
            THEN (SELECT sample_seed FROM jfi_run) || '|' ELSE '' END || u.id), 1, 8) AS BIGINT) / 4294967295.0 AS draw
    FROM audit_built_units AS u JOIN audit_judgments AS j USING (id)
),
reasoned AS (
    SELECT *, CASE WHEN draft = 'unsure' THEN 'unsure'
                   WHEN coalesce(flagged, false) AND draft = 'yes' THEN 'flagged-but-yes'
                   WHEN NOT coalesce(flagged, false) AND draft = 'no' THEN 'clean-but-no'
                   WHEN draw < 0.1 THEN 'random' END AS reason
    FROM judged
)
SELECT reason, ord, id, type, sc, product, view_count AS views, name, detail, href, context, flags, draft, confidence,
    rationale, fix
FROM reasoned WHERE reason IS NOT NULL
ORDER BY ord;
