-- ledger_digests: the content digest of every ratification record, computed while reading: sha256 of the canonical JSON (keys sorted) of the record with scope defaulted to wcag and without decision_id, supersedes and supersession_reason
--   source: ledger file path
--   line: 1-based line number
--   decision_id: sha256:<hex> of that canonical record
-- unit_pins: the content digest of each built unit the ledger names (the pins its records are checked against): sha256 of the canonical JSON of its judgment-units.json entry
--   id: unit id
--   unit_sha256: sha256:<hex> of the canonical unit
CREATE TABLE IF NOT EXISTS ledger_digests (source VARCHAR, line INTEGER, decision_id VARCHAR);
CREATE TABLE IF NOT EXISTS unit_pins (id VARCHAR, unit_sha256 VARCHAR);
