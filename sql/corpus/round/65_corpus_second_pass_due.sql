-- corpus_second_pass_due: items owing a blind second pass (candidate or needs-revision, not leaky, not adjudicated, fewer than two passes), with the only fields a blind pass may see
--   source: corpus file path
--   line: 1-based line number
--   item_id: item id
--   input_record: the record handed to the blind pass, as JSON (no answer fields)
CREATE OR REPLACE VIEW corpus_second_pass_due AS
SELECT source, line, id AS item_id,
    json_object('item_id', id, 'page_url', page_url, 'image_url', image_url, 'image_file', image_file,
        'implementation', implementation, 'element_role', element_role, 'element_html', element_html,
        'surrounding_text', surrounding_text, 'destination', destination) AS input_record
FROM corpus_items
WHERE status IN ('candidate', 'needs-revision') AND leaky = false AND NOT adjudicated AND pass_count < 2
ORDER BY line;
