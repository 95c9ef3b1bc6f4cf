-- corpus_rounds: one row per review batch file in review/, in numeric order, with its record count
--   round: the batch number NN of review/batch-NN.jsonl
--   source: the batch file
--   records: its JSON object lines
CREATE OR REPLACE VIEW corpus_rounds AS
SELECT f.round, f.source, (SELECT count(*) FROM jsonl_records AS r WHERE r.kind = 'batch' AND r.source = f.source
    AND r.is_object) AS records
FROM raw_files AS f WHERE f.kind = 'batch' AND f.present
ORDER BY f.round;
