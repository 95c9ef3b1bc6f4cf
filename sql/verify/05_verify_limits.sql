-- drift_limit_px: how far (in CSS pixels) a significant region's edge may move from the reference before the spatial check fails; `verify measure` and the gate both read it here
CREATE OR REPLACE MACRO drift_limit_px() AS 5.0;
