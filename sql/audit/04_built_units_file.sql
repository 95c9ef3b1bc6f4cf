-- audit_built_units_file: the units of a judgment-units.json, one row per entry of its units list, read by DuckDB's JSON reader (the whole document must fit in max_size bytes)
CREATE OR REPLACE MACRO audit_built_units_file(path, max_size) AS TABLE
SELECT generate_subscripts(units, 1) AS line, CAST(unnest(units) AS VARCHAR) AS text
FROM read_json(path, format = 'auto', records = 'true', columns = {'units': 'JSON[]'}, maximum_object_size = max_size);
