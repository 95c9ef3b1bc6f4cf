-- eval_same_text: whether two names are the same once normalised (norm_text); an empty locator names a decorative or unnamed image
-- eval_path: an href, src or destination reduced to what a locator writes: path, query and fragment, without scheme and host
-- eval_expectations: one row per planted expectation (expectations.yaml), typed
--   source: the expectations file
--   line: the line its list item starts on
--   ord: its place in the file
--   view: the view the element is on
--   type: title, heading, link, image, field, ident or nav
--   loc_text: locator text: the name (a link's text, an image's alt, a field's label, a title)
--   loc_href: locator href: where a link goes, an image's src, an ident's destination (a phrase that is not a URL or path is ignored)
--   loc_alt: locator alt
--   loc_src: locator src
--   loc_label: locator label
--   loc_level: locator heading level
--   expected: yes or no
--   unsure_ok: whether unsure counts as right
--   tier: must or calibration
--   reference: the WCAG failure or technique it plants
--   pattern_group: rows to be judged alike
--   evidence_contains: phrases a rationale should name
--   evidence_absent: phrases a rationale must not name
--   note: the author's note
CREATE OR REPLACE MACRO eval_same_text(name, locator) AS
    norm_text(name) = norm_text(locator) OR (norm_text(locator) = '' AND name IN ('(alt="")', '(no alt attribute)'));
CREATE OR REPLACE MACRO eval_path(u) AS
    CASE WHEN starts_with(u, '//') THEN coalesce(nullif(regexp_replace(u, '^//[^/?#]*', ''), ''),
        '/')  -- scheme-relative
         WHEN regexp_matches(u, '^[A-Za-z][A-Za-z0-9+.-]*://') THEN coalesce(nullif(regexp_replace(u,
             '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*', ''), ''), '/')
         WHEN starts_with(u, '/') OR starts_with(u, '#') OR starts_with(lower(u), 'javascript:')
             OR starts_with(lower(u), 'mailto:') THEN u
         WHEN contains(u, '/') THEN regexp_replace(u, '^[^/]*', '')  -- a destination identity: host/path
         WHEN regexp_matches(u, '^[A-Za-z0-9.-]+(:[0-9]+)?$') AND (contains(u, '.') OR contains(u, ':'))
             THEN '/'  -- host alone
         ELSE u END;

CREATE OR REPLACE VIEW eval_expectations AS
SELECT source, line, row_number() OVER (ORDER BY source, line) AS ord,
    jstr(doc, '$.view') AS view, jstr(doc, '$.type') AS type,
    jstr(doc, '$.locator.text') AS loc_text, jstr(doc, '$.locator.href') AS loc_href, jstr(doc,
        '$.locator.alt') AS loc_alt,
    jstr(doc, '$.locator.src') AS loc_src, jstr(doc, '$.locator.label') AS loc_label, jint(doc,
        '$.locator.level') AS loc_level,
    jstr(doc, '$.expected') AS expected, coalesce(jbool(doc, '$.unsure_ok'), false) AS unsure_ok, jstr(doc,
        '$.tier') AS tier,
    jstr(doc, '$.reference') AS reference, jstr(doc, '$.pattern_group') AS pattern_group,
    coalesce(CAST(json_transform(doc -> '$.evidence_contains', '["VARCHAR"]') AS VARCHAR[]), []) AS evidence_contains,
    coalesce(CAST(json_transform(doc -> '$.evidence_absent', '["VARCHAR"]') AS VARCHAR[]), []) AS evidence_absent,
    jstr(doc, '$.note') AS note
FROM jsonl_records WHERE kind = 'expectation' AND is_object;
