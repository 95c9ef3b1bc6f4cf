-- corpus_items: one row per JSON object line of the corpus file, fields typed (NULL where absent or of the wrong type); computed once when the store is built
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
--   types: the JSON type (or absent) of the nullable fields image_url, image_file, image_sha256, observed_alt and gold_alt_passes
CREATE OR REPLACE TABLE corpus_items AS
WITH extracted AS (
    SELECT source, line, json_extract(doc, ['$.id', '$.status', '$.round_added', '$.category', '$.subtype', '$.page_url', '$.domain', '$.image_url', '$.image_file', '$.image_sha256', '$.implementation', '$.element_role', '$.element_html', '$.surrounding_text', '$.destination', '$.observed_alt', '$.observed_alt_verdict', '$.gold_alt', '$.gold_alt_rationale', '$.gold_alt_passes', '$.adjudication', '$.difficulty', '$.dual_purpose', '$.leaky', '$.leakage_check', '$.retrieved', '$.provenance_note', '$.notes']) AS v
    FROM jsonl_records WHERE kind = 'item' AND is_object
),
typed AS (
    SELECT source, line,
        CASE WHEN json_type(v[1]) = 'VARCHAR' THEN v[1] ->> '$' END AS id,
        CASE WHEN json_type(v[2]) = 'VARCHAR' THEN v[2] ->> '$' END AS status,
        CASE WHEN json_type(v[3]) IN ('BIGINT', 'UBIGINT') THEN TRY_CAST(v[3] ->> '$' AS BIGINT) END AS round_added,
        CASE WHEN json_type(v[4]) IN ('BIGINT', 'UBIGINT') THEN TRY_CAST(v[4] ->> '$' AS BIGINT) END AS category,
        CASE WHEN json_type(v[5]) = 'VARCHAR' THEN v[5] ->> '$' END AS subtype,
        CASE WHEN json_type(v[6]) = 'VARCHAR' THEN v[6] ->> '$' END AS page_url,
        CASE WHEN json_type(v[7]) = 'VARCHAR' THEN v[7] ->> '$' END AS domain,
        CASE WHEN json_type(v[8]) = 'VARCHAR' THEN v[8] ->> '$' END AS image_url,
        CASE WHEN json_type(v[9]) = 'VARCHAR' THEN v[9] ->> '$' END AS image_file,
        CASE WHEN json_type(v[10]) = 'VARCHAR' THEN v[10] ->> '$' END AS image_sha256,
        CASE WHEN json_type(v[11]) = 'VARCHAR' THEN v[11] ->> '$' END AS implementation,
        CASE WHEN json_type(v[12]) = 'VARCHAR' THEN v[12] ->> '$' END AS element_role,
        CASE WHEN json_type(v[13]) = 'VARCHAR' THEN v[13] ->> '$' END AS element_html,
        CASE WHEN json_type(v[14]) = 'VARCHAR' THEN v[14] ->> '$' END AS surrounding_text,
        CASE WHEN json_type(v[15]) = 'VARCHAR' THEN v[15] ->> '$' END AS destination,
        CASE WHEN json_type(v[16]) = 'VARCHAR' THEN v[16] ->> '$' END AS observed_alt,
        CASE WHEN json_type(v[17]) = 'VARCHAR' THEN v[17] ->> '$' END AS observed_alt_verdict,
        CASE WHEN json_type(v[18]) = 'VARCHAR' THEN v[18] ->> '$' END AS gold_alt,
        CASE WHEN json_type(v[19]) = 'VARCHAR' THEN v[19] ->> '$' END AS gold_alt_rationale,
        CASE WHEN json_type(v[20]) = 'ARRAY' THEN json_transform(v[20], '[{"author": "VARCHAR", "alt": "VARCHAR", "rationale": "VARCHAR"}]') END AS gold_alt_passes,
        CASE WHEN json_type(v[21]) = 'VARCHAR' THEN v[21] ->> '$' END AS adjudication,
        CASE WHEN json_type(v[22]) = 'VARCHAR' THEN v[22] ->> '$' END AS difficulty,
        CASE WHEN json_type(v[23]) = 'BOOLEAN' THEN (v[23] ->> '$') = 'true' END AS dual_purpose,
        CASE WHEN json_type(v[24]) = 'BOOLEAN' THEN (v[24] ->> '$') = 'true' END AS leaky,
        CASE WHEN json_type(v[25]) = 'VARCHAR' THEN v[25] ->> '$' END AS leakage_check,
        CASE WHEN json_type(v[26]) = 'VARCHAR' THEN v[26] ->> '$' END AS retrieved,
        CASE WHEN json_type(v[27]) = 'VARCHAR' THEN v[27] ->> '$' END AS provenance_note,
        CASE WHEN json_type(v[28]) = 'VARCHAR' THEN v[28] ->> '$' END AS notes,
        {'image_url': coalesce(jtype_name(json_type(v[8])), 'absent'), 'image_file': coalesce(jtype_name(json_type(v[9])), 'absent'), 'image_sha256': coalesce(jtype_name(json_type(v[10])), 'absent'), 'observed_alt': coalesce(jtype_name(json_type(v[16])), 'absent'), 'gold_alt_passes': coalesce(jtype_name(json_type(v[20])), 'absent')} AS types
    FROM extracted
)
SELECT source, line, id, status, round_added, category, subtype, page_url, domain, image_url, image_file,
    image_sha256, implementation, element_role, element_html, surrounding_text, destination, observed_alt,
    observed_alt_verdict, gold_alt, gold_alt_rationale, gold_alt_passes,
    coalesce(len(gold_alt_passes), 0) AS pass_count,
    CASE WHEN len(gold_alt_passes) > 0 THEN len(list_distinct(list_transform(gold_alt_passes, lambda p: coalesce(p.alt, chr(0))))) = 1 END AS pass_alts_agree,
    coalesce(list_contains(list_transform(gold_alt_passes, lambda p: p.author), 'pass-b'), false) AS has_pass_b,
    adjudication, coalesce(trim(adjudication) <> '', false) AS adjudicated,
    difficulty, dual_purpose, leaky, leakage_check, retrieved, provenance_note, notes, types
FROM typed
ORDER BY source, line;
