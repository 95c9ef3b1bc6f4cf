-- raw_merge_runs: one row per merge recorded in history/merges.jsonl (loaded for queries and `audit diff`)
--   run: the merge's number, 1 for the first
--   utc: when it ran
--   doc: the whole record: inputs' digests, counts, the rows file
-- raw_merge_rows: the rows each recorded merge wrote (history/merge-NNNN.parquet), one row per unit and merge
--   run: the merge's number
--   id: unit id
--   status: DRAFT_NOT_RATIFIED or RATIFIED
--   draft_judgment: the judge's draft
--   drafted_by: who or what drafted it
--   spot_check: the spot check on it
--   ratification_state: RATIFIED, DRAFT or empty
--   ratified_judgment: the ratified judgment
--   ratified_by: who ratified it
--   ruling: the family ruling that decided it
--   decision_id: the ledger decision in force
CREATE TABLE IF NOT EXISTS raw_merge_runs (run INTEGER, utc VARCHAR, doc JSON);
CREATE TABLE IF NOT EXISTS raw_merge_rows (run INTEGER, id VARCHAR, status VARCHAR, draft_judgment VARCHAR,
    drafted_by VARCHAR, spot_check VARCHAR, ratification_state VARCHAR, ratified_judgment VARCHAR, ratified_by VARCHAR,
    ruling VARCHAR, decision_id VARCHAR);
