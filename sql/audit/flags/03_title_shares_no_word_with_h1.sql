-- title_shares_no_word_with_h1: no word of more than three letters in the h1 appears in the title
--   type: title
SELECT *
FROM audit_title_facts
WHERE len(h1s) > 0 AND NOT coalesce(list_bool_or(list_transform(h1_words, lambda w: contains(norm_text(name), w))),
    false)
