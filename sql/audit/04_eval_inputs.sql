-- eval_runs: one row per judge run scored by `jfi audit eval` (one model tier and one draw), run 0 being the flags-only baseline
--   run: run number (0: the deterministic flags as a judge)
--   label: the label as given, TIER/DRAW
--   tier: the model tier (flags for the baseline)
--   draw: the draw
--   folder: the folder its *.judged.jsonl files came from
-- eval_settings: the promotion bar (eval.toml beside the expectations, else the defaults)
--   recall_min: least must-tier recall on expected no, in every draw
--   false_alarm_max: most must-tier false-alarm rate on expected yes, in every draw
--   inventions_max: most rationales naming an evidence_absent phrase, in every draw
CREATE TABLE IF NOT EXISTS eval_runs (run INTEGER, label VARCHAR, tier VARCHAR, draw VARCHAR, folder VARCHAR);
CREATE TABLE IF NOT EXISTS eval_settings (recall_min DOUBLE, false_alarm_max DOUBLE, inventions_max INTEGER);
