-- corpus_items: one row per JSON object line of the corpus file, fields typed (NULL where absent or of the wrong type)
--   source: corpus file path
--   line: 1-based line number
--   id: item id
--   status: candidate, accepted, needs-revision or rejected
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
--   doc: the whole record as JSON
CREATE OR REPLACE VIEW corpus_items AS
WITH typed AS (
    SELECT source, line, doc,
        jstr(doc, '$.id') AS id, jstr(doc, '$.status') AS status, jint(doc, '$.round_added') AS round_added,
        jint(doc, '$.category') AS category, jstr(doc, '$.subtype') AS subtype,
        jstr(doc, '$.page_url') AS page_url, jstr(doc, '$.domain') AS domain,
        jstr(doc, '$.image_url') AS image_url, jstr(doc, '$.image_file') AS image_file,
        jstr(doc, '$.image_sha256') AS image_sha256, jstr(doc, '$.implementation') AS implementation,
        jstr(doc, '$.element_role') AS element_role, jstr(doc, '$.element_html') AS element_html,
        jstr(doc, '$.surrounding_text') AS surrounding_text, jstr(doc, '$.destination') AS destination,
        jstr(doc, '$.observed_alt') AS observed_alt, jstr(doc, '$.observed_alt_verdict') AS observed_alt_verdict,
        jstr(doc, '$.gold_alt') AS gold_alt, jstr(doc, '$.gold_alt_rationale') AS gold_alt_rationale,
        CASE WHEN json_type(doc, '$.gold_alt_passes') = 'ARRAY' THEN json_transform(doc -> '$.gold_alt_passes',
            '[{"author": "VARCHAR", "alt": "VARCHAR", "rationale": "VARCHAR"}]') END AS gold_alt_passes,
        jstr(doc, '$.adjudication') AS adjudication, jstr(doc, '$.difficulty') AS difficulty,
        jbool(doc, '$.dual_purpose') AS dual_purpose, jbool(doc, '$.leaky') AS leaky,
        jstr(doc, '$.leakage_check') AS leakage_check, jstr(doc, '$.retrieved') AS retrieved,
        jstr(doc, '$.provenance_note') AS provenance_note, jstr(doc, '$.notes') AS notes
    FROM jsonl_records WHERE kind = 'item' AND is_object
)
SELECT source, line, id, status, round_added, category, subtype, page_url, domain, image_url, image_file,
    image_sha256, implementation, element_role, element_html, surrounding_text, destination, observed_alt,
    observed_alt_verdict, gold_alt, gold_alt_rationale, gold_alt_passes,
    coalesce(len(gold_alt_passes), 0) AS pass_count,
    CASE WHEN len(gold_alt_passes) > 0 THEN len(list_distinct(list_transform(gold_alt_passes, lambda p: coalesce(p.alt, chr(0))))) = 1 END AS pass_alts_agree,
    coalesce(list_contains(list_transform(gold_alt_passes, lambda p: p.author), 'pass-b'), false) AS has_pass_b,
    adjudication, coalesce(trim(adjudication) <> '', false) AS adjudicated,
    difficulty, dual_purpose, leaky, leakage_check, retrieved, provenance_note, notes, doc
FROM typed;
