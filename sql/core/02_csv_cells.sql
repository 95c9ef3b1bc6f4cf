-- csv_cell: a text as one formula-safe CSV cell, the same bytes jfi.output.safe_cell and Python's csv writer make: a leading ' before a text a spreadsheet would run (one starting with = + - @ or their full-width forms once leading spaces and control or format characters are skipped, or one starting with a tab or a carriage return), then quoted when it holds a comma, a quote, a CR or an LF; NULL is the empty cell
-- csv_needs_quotes: whether a CSV cell must be quoted (it holds a comma, a quote, a CR or an LF)
-- csv_quoted: a text quoted as a CSV cell when it needs quotes; NULL is the empty cell
-- csv_guarded: a text with a leading ' when a spreadsheet would run it
-- csv_plain: a number or boolean already rendered as text, quoted only where needed (never guarded: a negative number stays a number)
-- csv_unguarded: a cell read back from a CSV or workbook a person returns: the leading ' of a text csv_guarded guarded is removed (any other text is as it was)
CREATE OR REPLACE MACRO csv_needs_quotes(t) AS regexp_matches(t, '[",\n\r]');
CREATE OR REPLACE MACRO csv_quoted(t) AS
    CASE WHEN t IS NULL OR t = '' THEN '' WHEN csv_needs_quotes(t) THEN '"' || replace(t, '"', '""') || '"' ELSE t END;
-- a text starting with an ASCII letter or digit (most cells) needs no look for a formula; the ' never needs quotes
CREATE OR REPLACE MACRO csv_guarded(t) AS
    CASE WHEN ascii(t) BETWEEN 48 AND 57 OR ascii(t) BETWEEN 65 AND 90 OR ascii(t) BETWEEN 97 AND 122 THEN t
         WHEN regexp_matches(t, '^([\t\r]|[\p{Z}\p{Cc}\p{Cf}]*[=+\-@＝＋－＠])') THEN '''' || t ELSE t END;
CREATE OR REPLACE MACRO csv_cell(t) AS
    CASE WHEN t IS NULL OR t = '' THEN '' WHEN csv_needs_quotes(t) THEN '"' || replace(csv_guarded(t), '"', '""') || '"'
         ELSE csv_guarded(t) END;
CREATE OR REPLACE MACRO csv_plain(t) AS csv_quoted(t);
CREATE OR REPLACE MACRO csv_unguarded(t) AS
    CASE WHEN starts_with(t, '''') AND length(t) > 1 AND csv_guarded(substr(t, 2)) = t THEN substr(t, 2) ELSE t END;
