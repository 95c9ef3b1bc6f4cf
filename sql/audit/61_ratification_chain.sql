-- ratification_chain: the history of every unit's decisions, per scope:id in ledger order: who decided what, when, and what each record replaces
--   scope: wcag or client
--   id: unit id
--   line: ledger line
--   step: 1 for the first record of the chain
--   decision_id: the record's decision id
--   previous_decision_id: the decision in force before this record
--   supersedes: the decision id it names as replaced
--   supersession_reason: why
--   ratified_by: who
--   ratified_judgment: what (wcag)
--   ratified_client_result: what (client)
--   ratified_utc: when
--   complete: whether the record is a complete decision (else a draft)
--   change: first, retry (identical to the decision in force), supersession, withdrawal (back to a draft), or an error code
CREATE OR REPLACE TABLE ratification_chain AS
WITH ordered AS (
    SELECT *, row_number() OVER w AS step, lag(decision_id) OVER w AS previous_decision_id,
        lag(complete) OVER w AS previous_complete
    FROM ratification_records
    WHERE id IS NOT NULL
    WINDOW w AS (PARTITION BY scope, id ORDER BY line)
)
SELECT scope, id, line, step, decision_id, previous_decision_id, supersedes, supersession_reason, ratified_by,
    ratified_judgment, ratified_client_result, ratified_utc, complete,
    CASE WHEN step = 1 AND (supersedes <> '' OR supersession_reason <> '') THEN 'orphan_supersession'
         WHEN step = 1 THEN 'first'
         WHEN decision_id = previous_decision_id THEN 'retry'
         WHEN supersedes = '' THEN 'conflicting_decision'
         WHEN supersedes <> previous_decision_id OR trim(supersession_reason) = '' THEN 'invalid_supersession'
         WHEN previous_complete AND NOT complete THEN 'withdrawal'
         ELSE 'supersession' END AS change
FROM ordered
ORDER BY scope, id, line;
