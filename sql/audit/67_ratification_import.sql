-- ratification_import: the ledger in numbers, for draft-judgments.json: records, complete decisions per scope, drafts, pinned and legacy records, day-precision records, identical retries, supersessions
--   records: ledger records
--   complete_wcag: wcag records that are complete decisions
--   complete_client: client records that are complete decisions
--   drafts: records that are drafts (a name alone never ratifies)
--   pinned: records with a unit pin
--   unpinned_legacy: records without a pin
--   legacy_day_precision_records: legacy records dated by day only
--   identical_retries: records identical to the decision in force
--   supersessions: records that replace a decision (withdrawals included)
CREATE OR REPLACE VIEW ratification_import AS
SELECT count(*) AS records,
    count(*) FILTER (WHERE scope = 'wcag' AND complete) AS complete_wcag,
    count(*) FILTER (WHERE scope = 'client' AND complete) AS complete_client,
    count(*) FILTER (WHERE NOT complete) AS drafts,
    count(*) FILTER (WHERE unit_sha256 <> '') AS pinned,
    count(*) FILTER (WHERE unit_sha256 = '') AS unpinned_legacy,
    count(*) FILTER (WHERE date_precision = 'day') AS legacy_day_precision_records,
    (SELECT count(*) FROM ratification_chain WHERE change = 'retry') AS identical_retries,
    (SELECT count(*) FROM ratification_chain WHERE change IN ('supersession', 'withdrawal')) AS supersessions
FROM ratification_records;
