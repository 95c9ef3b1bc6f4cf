-- corpus_items: one row per JSON object line of the corpus file, the fields of every profile typed (NULL where absent or of the wrong type); computed once when the store is built
--   source: corpus file path
--   line: 1-based line number
--   id: item id
--   status: the review status (round: candidate, accepted, needs-revision, rejected; harvest: unreviewed, ready, dropped)
--   round_added: round in which the item was added
--   category: functional-image category 1-5
--   subtype: sub-type within the category
--   page_url: page the image was found on
--   domain: host of page_url without www.
--   image_url: URL of the image, when it has one
--   image_file: local copy corpus/images/<id>.<ext>
--   image_sha256: sha256 of the local copy
--   implementation: how the image is drawn
--   element_role: role of the enclosing control
--   element_html: markup of the control
--   surrounding_text: text around the control
--   destination: where the control leads or what it does
--   observed_alt: alt text found on the page
--   observed_alt_verdict: verdict on the observed alt
--   gold_alt: gold-standard alt text
--   gold_alt_rationale: why the gold alt is right
--   gold_alt_passes: the independent passes as a list of {author, alt, rationale}
--   pass_count: number of passes
--   pass_alts_agree: whether every pass gave the same alt (NULL without passes)
--   has_pass_b: whether a blind second pass (author pass-b) is recorded
--   adjudication: adjudication note, when set
--   adjudicated: whether a non-blank adjudication is set
--   difficulty: trivial, standard or ambiguous
--   dual_purpose: whether the image is both informative and functional
--   leaky: whether the answer is recoverable without judgment
--   leakage_check: how leakage was checked
--   retrieved: date the page was retrieved
--   provenance_note: where the item comes from
--   notes: free notes
--   accessible_name: round-v2, harvest: what the control announces to a screen reader
--   accessible_name_source: round-v2, harvest: where that name comes from (alt, aria-label, aria-labelledby, title, svg-title, control-text)
--   sector: harvest: the seed list's sector
--   image_svg: harvest: the standalone SVG document of an inline-svg item
--   image_coord_space: harvest: WIDTHxHEIGHT of an area's map image
--   review_verdict: harvest: keep or drop
--   review_reason: harvest: why
--   alt_quality: harvest: good, weak or wrong
--   types: the JSON type (or absent) of the nullable fields image_url, image_file, image_sha256, observed_alt, gold_alt_passes, image_svg, image_coord_space, review_verdict, review_reason and alt_quality
CREATE OR REPLACE TABLE corpus_items AS
WITH items AS (SELECT source, line FROM jsonl_records WHERE kind = 'item' AND is_object),
vals AS (
    -- one row per item from the long form already made for the field rules: a value of the wrong JSON type is NULL here
    SELECT source, line,
        any_value(str) FILTER (WHERE field = 'id') AS id,
        any_value(str) FILTER (WHERE field = 'status') AS status,
        TRY_CAST(any_value(int) FILTER (WHERE field = 'round_added') AS BIGINT) AS round_added,
        TRY_CAST(any_value(int) FILTER (WHERE field = 'category') AS BIGINT) AS category,
        any_value(str) FILTER (WHERE field = 'subtype') AS subtype,
        any_value(str) FILTER (WHERE field = 'page_url') AS page_url,
        any_value(str) FILTER (WHERE field = 'domain') AS domain,
        any_value(str) FILTER (WHERE field = 'image_url') AS image_url,
        any_value(str) FILTER (WHERE field = 'image_file') AS image_file,
        any_value(str) FILTER (WHERE field = 'image_sha256') AS image_sha256,
        any_value(str) FILTER (WHERE field = 'implementation') AS implementation,
        any_value(str) FILTER (WHERE field = 'element_role') AS element_role,
        any_value(str) FILTER (WHERE field = 'element_html') AS element_html,
        any_value(str) FILTER (WHERE field = 'surrounding_text') AS surrounding_text,
        any_value(str) FILTER (WHERE field = 'destination') AS destination,
        any_value(str) FILTER (WHERE field = 'observed_alt') AS observed_alt,
        any_value(str) FILTER (WHERE field = 'observed_alt_verdict') AS observed_alt_verdict,
        any_value(str) FILTER (WHERE field = 'gold_alt') AS gold_alt,
        any_value(str) FILTER (WHERE field = 'gold_alt_rationale') AS gold_alt_rationale,
        json_transform(any_value(value) FILTER (WHERE field = 'gold_alt_passes' AND jtype = 'array'),
            '[{"author": "VARCHAR", "alt": "VARCHAR", "rationale": "VARCHAR"}]') AS gold_alt_passes,
        any_value(str) FILTER (WHERE field = 'adjudication') AS adjudication,
        any_value(str) FILTER (WHERE field = 'difficulty') AS difficulty,
        any_value(bool) FILTER (WHERE field = 'dual_purpose') AS dual_purpose,
        any_value(bool) FILTER (WHERE field = 'leaky') AS leaky,
        any_value(str) FILTER (WHERE field = 'leakage_check') AS leakage_check,
        any_value(str) FILTER (WHERE field = 'retrieved') AS retrieved,
        any_value(str) FILTER (WHERE field = 'provenance_note') AS provenance_note,
        any_value(str) FILTER (WHERE field = 'notes') AS notes,
        any_value(str) FILTER (WHERE field = 'accessible_name') AS accessible_name,
        any_value(str) FILTER (WHERE field = 'accessible_name_source') AS accessible_name_source,
        any_value(str) FILTER (WHERE field = 'sector') AS sector,
        any_value(str) FILTER (WHERE field = 'image_svg') AS image_svg,
        any_value(str) FILTER (WHERE field = 'image_coord_space') AS image_coord_space,
        any_value(str) FILTER (WHERE field = 'review_verdict') AS review_verdict,
        any_value(str) FILTER (WHERE field = 'review_reason') AS review_reason,
        any_value(str) FILTER (WHERE field = 'alt_quality') AS alt_quality,
        {'image_url': coalesce(any_value(jtype) FILTER (WHERE field = 'image_url'), 'absent'),
            'image_file': coalesce(any_value(jtype) FILTER (WHERE field = 'image_file'), 'absent'),
            'image_sha256': coalesce(any_value(jtype) FILTER (WHERE field = 'image_sha256'), 'absent'),
            'observed_alt': coalesce(any_value(jtype) FILTER (WHERE field = 'observed_alt'), 'absent'),
            'gold_alt_passes': coalesce(any_value(jtype) FILTER (WHERE field = 'gold_alt_passes'), 'absent'),
         'image_svg': coalesce(any_value(jtype) FILTER (WHERE field = 'image_svg'), 'absent'),
             'image_coord_space': coalesce(any_value(jtype) FILTER (WHERE field = 'image_coord_space'), 'absent'),
             'review_verdict': coalesce(any_value(jtype) FILTER (WHERE field = 'review_verdict'), 'absent'),
             'review_reason': coalesce(any_value(jtype) FILTER (WHERE field = 'review_reason'), 'absent'),
             'alt_quality': coalesce(any_value(jtype) FILTER (WHERE field = 'alt_quality'), 'absent')} AS types
    FROM jsonl_values WHERE kind = 'item'
    GROUP BY source, line
),
typed AS (
    SELECT i.source, i.line, v.* EXCLUDE (source, line, types),
        coalesce(v.types, {'image_url': 'absent', 'image_file': 'absent', 'image_sha256': 'absent',
            'observed_alt': 'absent',
            'gold_alt_passes': 'absent', 'image_svg': 'absent', 'image_coord_space': 'absent',
                'review_verdict': 'absent',
            'review_reason': 'absent', 'alt_quality': 'absent'}) AS types  -- an object without keys
    FROM items AS i LEFT JOIN vals AS v USING (source, line)
)
SELECT source, line, id, status, round_added, category, subtype, page_url, domain, image_url, image_file,
    image_sha256, implementation, element_role, element_html, surrounding_text, destination, observed_alt,
    observed_alt_verdict, gold_alt, gold_alt_rationale, gold_alt_passes,
    coalesce(len(gold_alt_passes), 0) AS pass_count,
    CASE WHEN len(gold_alt_passes) > 0 THEN len(list_distinct(list_transform(gold_alt_passes, lambda p: coalesce(p.alt,
        chr(0))))) = 1 END AS pass_alts_agree,
    coalesce(list_contains(list_transform(gold_alt_passes, lambda p: p.author), 'pass-b'), false) AS has_pass_b,
    adjudication, coalesce(trim(adjudication) <> '', false) AS adjudicated,
    difficulty, dual_purpose, leaky, leakage_check, retrieved, provenance_note, notes, accessible_name,
    accessible_name_source, sector, image_svg, image_coord_space, review_verdict, review_reason, alt_quality, types
FROM typed
ORDER BY source, line;
