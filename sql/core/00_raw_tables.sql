-- jfi_run: one row describing this build of the store: jfi version, rulebook hash and the corpus goal
--   jfi_version: version of jfi that built the store
--   rulebook_sha256: sha256 over the relative paths and bytes of the rulebook files the store runs, in load order (and the corpus profile)
--   goal: the accepted-item goal N that the corpus targets scale from
--   batch_size: most units per judge batch file
--   sample_seed: seed of the reproducible spot-check sample (empty for the default)
--   profile: the corpus profile whose rules the store runs (round-v1, round-v2 or harvest; NULL without the corpus rules)
-- raw_lines: every non-blank line of every input file, with its exact 1-based physical line number
--   kind: what the file holds (item, review, second_pass, second_pass_input, report)
--   source: the file's path as jfi was given it
--   round: the round number taken from the file name (null for files outside rounds/)
--   line: 1-based physical line number (blank lines are counted, never returned)
--   text: the line without its terminator (and without a byte-order mark on line 1)
-- raw_json_problems: what the reader found in a line that SQL's JSON functions do not report: a key repeated in one object (at any depth), or nesting too deep to read
--   kind: what the file holds
--   source: the file's path
--   line: 1-based physical line number
--   field: the repeated key (NULL for nesting)
--   message: what is wrong, in words
-- raw_files: every input file jfi looked for, present or not
--   kind: what the file holds
--   source: the file's path
--   round: the round number taken from the file name
--   present: whether the file exists
-- field_specs: one row per field of each JSONL record kind: the data behind the generic field rules
--   kind: record kind the field belongs to
--   field: JSON key (`*`: the kind takes keys it does not list, as they come)
--   required: whether the key must be present
--   types: allowed JSON types (string, integer, number, boolean, array, object, null)
--   allowed: the values a string may take (null when free)
--   pattern: a regular expression the whole string must match (null when free)
--   format: a named format the string must satisfy: http_url, date, nonblank or person (a name that signs: shows a letter or digit, holds no control or invisible character)
--   min_len: fewest characters allowed
--   max_len: most characters allowed
--   min_int: smallest integer allowed
--   max_int: largest integer allowed
--   meaning: what the field holds
CREATE TABLE IF NOT EXISTS jfi_run (jfi_version VARCHAR, rulebook_sha256 VARCHAR, goal INTEGER, batch_size INTEGER,
    sample_seed VARCHAR, profile VARCHAR);
CREATE TABLE IF NOT EXISTS raw_lines (kind VARCHAR, source VARCHAR, round INTEGER, line INTEGER, text VARCHAR);
CREATE TABLE IF NOT EXISTS raw_json_problems (kind VARCHAR, source VARCHAR, line INTEGER, field VARCHAR,
    message VARCHAR);
CREATE TABLE IF NOT EXISTS raw_files (kind VARCHAR, source VARCHAR, round INTEGER, present BOOLEAN);
CREATE TABLE IF NOT EXISTS field_specs (
    kind VARCHAR, field VARCHAR, required BOOLEAN, types VARCHAR[], allowed VARCHAR[], pattern VARCHAR,
    format VARCHAR, min_len INTEGER, max_len INTEGER, min_int BIGINT, max_int BIGINT, meaning VARCHAR);
