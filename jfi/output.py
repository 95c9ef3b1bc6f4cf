"""Writing results for people and programs: aligned tables, formula-safe CSV, JSON."""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import decimal
import functools
import io
import json
import re
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


def _cell_text(value) -> tuple[str | None, bool]:
    """A value as the text of its CSV cell, and whether it is plain (a number or boolean: never guarded)."""
    if value is None or type(value) is str:
        return value, False
    if isinstance(value, bool):
        return ("true" if value else "false"), True
    if isinstance(value, (int, float, decimal.Decimal)):
        return str(value), True  # numbers stay numbers, a negative one included
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False), False
    return str(value), False


def csv_text(columns: list[str], rows: list[tuple]) -> str:
    header, lines = csv_lines(columns, rows)
    return header + "".join(lines)


def csv_lines(columns: list[str], rows: list[tuple]) -> tuple[str, list[str]]:
    """The header line and one formula-safe CSV line per row (so subsets of rows can be written without formatting them
    again). Every cell is rendered by the core rulebook's csv_cell (texts: a spreadsheet never runs one) or csv_plain
    (numbers, booleans, header names), the rule that lives in sql/core/02_csv_cells.sql and nowhere else; every CR,
    LF, quote or comma inside a cell is quoted, so each row is one record."""
    texts, plain = [], []
    for row in rows:
        for value in row:
            text, is_plain = _cell_text(value)
            texts.append(text)
            plain.append(is_plain)
    header = csv_rules("csv_plain(t)", columns)
    cells = csv_rules("CASE WHEN p THEN csv_plain(t) ELSE csv_cell(t) END", texts, plain)
    width = len(columns)

    def line(parts: list[str]) -> str:
        return (",".join(parts) if parts != [""] else '""') + "\n"  # a lone empty cell is "", as csv writers write it

    return line(header), [line(cells[i : i + width]) for i in range(0, len(cells), width)]


ARROW_CELLS = 20_000  # more cells than this go to DuckDB as an Arrow table: a list parameter is converted value by
# value (364,000 cells: 0.55 s as lists, 0.13 s as a table); fewer go as lists, and a command need not import Arrow


def csv_rules(expression: str, texts: list, flags: list[bool] | None = None) -> list:
    """`expression` over each text `t` (and its flag `p`), in order: the core rulebook's CSV cell macros
    (sql/core/02_csv_cells.sql: csv_cell, csv_plain, csv_unguarded) applied to many cells at once."""
    if not texts:
        return []
    flags = flags if flags is not None else [False] * len(texts)
    con = _csv_connection().cursor()
    try:
        if len(texts) > ARROW_CELLS:  # a scan keeps its rows' order (DuckDB preserves insertion order)
            import pyarrow as pa

            con.register("_jfi_cells", pa.table({"t": pa.array(texts, pa.string()), "p": pa.array(flags, pa.bool_())}))
            return [c for (c,) in con.execute(f"SELECT {expression} FROM _jfi_cells").fetchall()]
        return [
            c
            for (c,) in con.execute(
                f"SELECT {expression} FROM (SELECT unnest(?::VARCHAR[]) AS t, unnest(?::BOOLEAN[]) AS p, "
                "generate_subscripts(?::BOOLEAN[], 1) AS k) ORDER BY k",
                [texts, flags, flags],
            ).fetchall()
        ]
    finally:
        con.close()


@functools.cache
def _csv_connection():
    """One in-memory DuckDB connection per process holding the CSV cell macros (it reads no file and keeps no data)."""
    import duckdb

    from .rulebook import sql_dir

    con = duckdb.connect()
    con.execute((sql_dir() / "core" / "02_csv_cells.sql").read_text(encoding="utf-8"))
    return con


def write_json_document(fh, head: dict, lists: dict[str, Iterable[str]]) -> None:
    """A JSON object on a binary handle: its head indented, then long lists with one compact item per line
    (readable diffs, and fast: an indented dump of 100,000 rows takes a minute). Each list is given as JSON
    texts, one item each or several already joined with ",\n  " (as SQL can hand them over in chunks)."""
    fh.write(json.dumps(head, ensure_ascii=False, indent=1)[:-2].encode("utf-8"))
    for key, texts in lists.items():
        fh.write(f",\n {json.dumps(key)}: [".encode("utf-8"))
        sep = "\n  "
        for text in texts:
            fh.write((sep + text).encode("utf-8"))
            sep = ",\n  "
        fh.write(b"]" if sep == "\n  " else b"\n ]")
    fh.write(b"\n}\n")


def json_lines(value, long: frozenset[str] = frozenset()) -> str:
    """The text of json.dumps(value, indent=1, ensure_ascii=False), except that each non-empty list under one of the
    keys `long` has one compact item per line: readable diffs, and the C encoder's speed (an indented dump is pure
    Python: 23 s for 260,000 SARIF results, 4 s this way). Its pieces are joined once."""
    return "".join(_json_pieces(value, long, 0))


def _json_pieces(value, long: frozenset[str], level: int):
    pad, inner = "\n" + " " * level, "\n" + " " * (level + 1)
    if isinstance(value, dict) and value:
        sep = "{"
        for k, v in value.items():
            yield f"{sep}{inner}{json.dumps(k, ensure_ascii=False)}: "
            if k in long and isinstance(v, list) and v:
                yield "["
                yield ",".join(f"{inner} {json.dumps(x, ensure_ascii=False)}" for x in v)
                yield inner + "]"
            else:
                yield from _json_pieces(v, long, level + 1)
            sep = ","
        yield pad + "}"
    elif isinstance(value, list) and value:
        sep = "["
        for v in value:
            yield sep + inner
            yield from _json_pieces(v, long, level + 1)
            sep = ","
        yield pad + "]"
    else:
        yield json.dumps(value, ensure_ascii=False)


def to_jsonable(value):
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value


def dumps(obj) -> str:
    return json.dumps(to_jsonable(obj), ensure_ascii=False, indent=2)


def table(columns: list[str], rows: list[tuple], *, title: str | None = None) -> str:
    """An aligned text table drawn by rich (a rule under the header, no colour, never wrapped: a log keeps one row
    per line); cell text is shown as it is, never read as markup."""
    import io

    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    cells = [[("" if v is None else str(v)).replace("\n", " ") for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    grid = Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        title=Text(title) if title else None,
        title_justify="left",
        title_style="",
        header_style="",
    )
    for c in columns:
        grid.add_column(Text(c), no_wrap=True)
    for r in cells:
        grid.add_row(*[Text(v) for v in r])
    out = io.StringIO()
    Console(
        file=out,
        width=sum(widths) + 3 * len(widths) + 8,
        color_system=None,
        force_terminal=False,
        highlight=False,
        emoji=False,
    ).print(grid, overflow="ignore", crop=False)
    return "\n".join(line.rstrip() for line in out.getvalue().rstrip("\n").splitlines())


def utc_now(timespec: str = "milliseconds") -> str:
    """The current UTC time as an ISO 8601 timestamp ending in Z."""
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec=timespec).replace("+00:00", "Z")


def err(text: str) -> None:
    print(text, file=sys.stderr)


# Where a command's words go: the command line prints them as they come (the default); the Python API (jfi.api)
# collects them on the result it returns. Workflow modules never print: they say (stdout) or note (stderr).
_voice: contextvars.ContextVar = contextvars.ContextVar("jfi_voice", default=None)


@dataclass
class Outcome:
    """What a command found, as an object: its exit status, its report and what it tells its user. The command line
    prints the report as one JSON document on stdout (for programs), or as the text its user asked for (`text`), then
    the lines, and the notes on stderr; the Python API returns the report as the result's data, never parsed from
    text, and the words on the result."""

    code: int = 0
    data: Any = None
    indent: int | None = None  # how the command line lays the JSON out
    ascii: bool = True  # whether it escapes what is not ASCII
    lines: list[str] = field(default_factory=list)  # what it tells its user on stdout, after the JSON if any
    notes: list[str] = field(default_factory=list)  # what it tells its user on stderr
    # the report in the form its user chose (a table, CSV, or JSON laid out for reading), printed instead of the JSON
    text: str | None = None
    # whether the command line prints the report as JSON; a command whose words are its lines keeps its report for the
    # Python API (its result's data) and prints the lines alone
    printed: bool = True

    def json(self) -> str:
        return json.dumps(self.data, indent=self.indent, ensure_ascii=self.ascii)

    def shown(self) -> str | None:
        """What the command line prints on stdout before the lines: the text, else the report as JSON."""
        if self.text is not None:
            return self.text.removesuffix("\n") or None
        return self.json() if self.data is not None and self.printed else None


def say(text: str) -> None:
    """What a command tells its user on stdout (a summary line, a table, a JSON report)."""
    sink = _voice.get()
    if sink is None:
        print(text)
    else:
        sink("out", str(text))


def note(text: str) -> None:
    """What a command tells its user on stderr (a problem it met, a warning, a refused row)."""
    sink = _voice.get()
    if sink is None:
        err(text)
    else:
        sink("err", str(text))


def collecting() -> bool:
    """Whether a command's words are being collected (the Python API) rather than shown on a terminal."""
    return _voice.get() is not None


@contextlib.contextmanager
def collected(sink):
    """Within the block, say() and note() go to sink(stream, text) instead of the terminal."""
    token = _voice.set(sink)
    try:
        yield
    finally:
        _voice.reset(token)


# Characters a terminal would obey or hide: controls (but newline and tab), format characters such as bidi overrides
# and zero-width spaces, line and paragraph separators, surrogates. What jfi prints shows each as \\uXXXX (surrogate
# pairs beyond U+FFFF), which is also how JSON writes it, so printed JSON stays valid and means the same.
_CANDIDATE = re.compile(r"[^\x20-\x7e\n\t]")
_HIDDEN = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs"))


def _escape(m: re.Match) -> str:
    ch = m.group()
    if unicodedata.category(ch) not in _HIDDEN:
        return ch
    code = ord(ch)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def shown(text: str) -> str:
    """Text as it may reach a terminal: every control or invisible character shown as an escape, never obeyed."""
    return _CANDIDATE.sub(_escape, text)


class Shown(io.TextIOBase):
    """A text stream that shows control and invisible characters (see `shown`) and passes the rest to `raw`."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(shown(text))
        return len(text)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    @property
    def encoding(self):
        return getattr(self.raw, "encoding", "utf-8")


def raw_stream(stream):
    """The stream under a Shown wrapper (for rich's progress bar, whose own escapes must reach the terminal)."""
    return getattr(stream, "raw", stream) if isinstance(stream, Shown) else stream


def sql_json_object(columns: list[str]) -> str:
    """A SQL expression rendering a row's columns as one compact JSON object text, keys in this order."""

    def quoted(col: str) -> str:
        return '"' + col.replace('"', '""') + '"'

    return (
        "CAST(json_object("
        + ", ".join("'" + c.replace("'", "''") + "', " + quoted(c) for c in columns)
        + ") AS VARCHAR)"
    )


def sql_csv_line(columns: list[str], types: dict[str, str]) -> tuple[str, str]:
    """SQL rendering one CSV line (no terminator) per row, byte for byte what csv_lines makes of the same values
    (lists joined with "; ", booleans true/false, numbers as numbers), with the core rulebook's csv_cell and csv_plain
    macros. Returns (a select list turning the relation's columns into texts, the line over those texts): the line is
    selected from a subquery of the texts, so each cell's text is computed once."""
    texts, cells = [], []
    for col in columns:
        ident = '"' + col.replace('"', '""') + '"'
        kind = types[col]
        if kind.endswith("[]"):
            texts.append(f"array_to_string({ident}, '; ') AS {ident}")
        elif kind == "BOOLEAN":
            texts.append(f"CASE WHEN {ident} THEN 'true' WHEN NOT {ident} THEN 'false' END AS {ident}")
        elif kind in ("BIGINT", "INTEGER", "HUGEINT", "SMALLINT", "TINYINT", "UBIGINT", "UINTEGER"):
            texts.append(f"CAST({ident} AS VARCHAR) AS {ident}")
        elif kind == "VARCHAR":
            texts.append(ident)
        else:
            raise ValueError(f"no CSV rendering in SQL for column {col} of type {kind}")
        plain = kind == "BOOLEAN" or not (kind.endswith("[]") or kind == "VARCHAR")
        cells.append(f"{'csv_plain' if plain else 'csv_cell'}({ident})")
    return ", ".join(texts), f"concat_ws(',', {', '.join(cells)})"  # no cell is NULL: concat_ws skips none


MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>&|#!~])")
LINE_BREAKS = re.compile(r"[\r\n]+")


def md_text(value) -> str:
    """Text from a page (a name, a context, a judge's rationale) as Markdown shows it and nothing more: on one line,
    every character Markdown or HTML would act on escaped, so a page's `<img onerror=…>`, `[link](javascript:…)` or
    `## heading` is read as the text it is."""
    text = "" if value is None else str(value)
    if "\n" in text or "\r" in text:
        text = LINE_BREAKS.sub(" ", text)
    return MARKDOWN_SPECIAL.sub(r"\\\1", text)
