"""Workbooks for people (the CSVs stay for programs): a sheet per table, the header frozen, filters on, sensible
widths, long text wrapped, the status column coloured by state, machine columns grouped and collapsed at the right,
a print setup (landscape, one page wide, the header row repeated), drop-down lists on closed columns, and a Columns
sheet saying what each column means.
Every cell is a string or a number, never a formula, whatever the text starts with."""

from __future__ import annotations

import decimal
import io
import json
import re
import zipfile
from dataclasses import dataclass, field

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

MAX_WIDTH = 60
WRAP_AFTER = 40  # characters: a column whose cells run longer is wrapped
STATE_FILLS = {  # status values and their colours (a light fill a printed page keeps readable)
    "RATIFIED": "C6EFCE",
    "PARTIALLY_RATIFIED": "FFEB9C",
    "DRAFT_NOT_RATIFIED": "FFEB9C",
    "DRAFT": "FFEB9C",
    "accepted": "C6EFCE",
    "ready": "C6EFCE",
    "candidate": "FFEB9C",
    "unreviewed": "FFEB9C",
    "needs-revision": "FFC7CE",
    "rejected": "FFC7CE",
    "dropped": "FFC7CE",
}


@dataclass
class Sheet:
    name: str
    columns: list[str]
    rows: list[tuple]
    meanings: dict[str, str] = field(default_factory=dict)
    status_column: str | None = None
    grouped_from: str | None = None  # this column and the ones after it are grouped at the right, collapsed
    choices: dict[str, list[str]] = field(default_factory=dict)  # a drop-down list of the values a column takes
    links: tuple[str, ...] = ()  # columns whose text is a relative address: the cell links there (a click opens it)


def cell_value(value):
    """The CSV's cell without its formula guard: a number stays a number and a boolean a boolean; lists and objects
    are JSON; None is empty; everything else is its text."""
    if isinstance(value, (bool, int, float)):  # a boolean stays a boolean (TRUE/FALSE in the sheet)
        return value
    if isinstance(value, decimal.Decimal):
        return float(value)
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        value = json.dumps(value, ensure_ascii=False)
    # a control character XML cannot hold shows as U+FFFD (the JSON outputs keep the original)
    return ILLEGAL_CHARACTERS_RE.sub("\ufffd", str(value))


def _fill(ws, sheet: Sheet) -> None:
    ws.append(sheet.columns)
    for c in ws[1]:
        c.font = Font(bold=True)
    status_at = sheet.columns.index(sheet.status_column) if sheet.status_column in sheet.columns else None
    linked = {sheet.columns.index(c) + 1 for c in sheet.links if c in sheet.columns}
    longest = [len(c) for c in sheet.columns]
    for r, row in enumerate(sheet.rows, start=2):
        for c, value in enumerate(row, start=1):
            v = cell_value(value)
            cell = ws.cell(row=r, column=c)
            cell.value = v
            if isinstance(v, str):
                cell.data_type = "s"  # text, even when it starts with = + - @: a workbook cell is never a formula
                if c in linked and v and not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", v):  # relative only: never a scheme
                    cell.hyperlink = v
                    cell.style = "Hyperlink"
                longest[c - 1] = max(longest[c - 1], max((len(x) for x in v.splitlines()), default=0))
            else:
                longest[c - 1] = max(longest[c - 1], len(str(v)))
        if status_at is not None:
            fill = STATE_FILLS.get(str(row[status_at]))
            if fill:
                ws.cell(row=r, column=status_at + 1).fill = PatternFill("solid", start_color=fill, end_color=fill)
    for c, width in enumerate(longest, start=1):
        letter = get_column_letter(c)
        ws.column_dimensions[letter].width = min(MAX_WIDTH, max(8, width + 2))
        if width > WRAP_AFTER:
            for cell in ws[letter][1:]:
                cell.alignment = Alignment(wrap_text=True, vertical="top")
    ws.freeze_panes = "B2" if status_at == 0 else "A2"
    if sheet.rows:
        ws.auto_filter.ref = ws.dimensions
    if sheet.grouped_from in sheet.columns:
        first = get_column_letter(sheet.columns.index(sheet.grouped_from) + 1)
        ws.column_dimensions.group(first, get_column_letter(len(sheet.columns)), hidden=True, outline_level=1)
    for column, values in sheet.choices.items():  # a drop-down in every row of the column (other text is still let in:
        if column in sheet.columns and sheet.rows:  # the reader says what it expected)
            letter = get_column_letter(sheet.columns.index(column) + 1)
            dv = DataValidation(
                type="list",
                formula1='"' + ",".join(values) + '"',
                allow_blank=True,
                showErrorMessage=True,
                errorStyle="warning",
                error=f"Expected one of: {', '.join(values)}",
                promptTitle=column,
                prompt=", ".join(values),
            )
            dv.add(f"{letter}2:{letter}{len(sheet.rows) + 1}")
            ws.add_data_validation(dv)
    # printed: landscape, as wide as one page, the header row on every page
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_title_rows = "1:1"


def workbook_bytes(sheets: list[Sheet]) -> bytes:
    """The .xlsx bytes: the sheets in order, then Columns (sheet, column, meaning) for every column that has one."""
    wb = Workbook()
    wb.remove(wb.active)
    for sheet in sheets:
        _fill(wb.create_sheet(sheet.name[:31]), sheet)
    described = [(s.name, c, s.meanings.get(c, "")) for s in sheets for c in s.columns if s.meanings]
    if described:
        _fill(wb.create_sheet("Columns"), Sheet("Columns", ["sheet", "column", "meaning"], described))
    out = io.BytesIO()
    wb.save(out)
    return _fixed(out.getvalue())


FIXED_TIME = "2000-01-01T00:00:00Z"


def _fixed(data: bytes) -> bytes:
    """The same workbook for the same content: every entry dated alike and the document's own dates fixed, so an
    unchanged export is byte-identical."""
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*", rb"\g<1>" + FIXED_TIME.encode(), body)
            dst.writestr(
                zipfile.ZipInfo(info.filename, date_time=(2000, 1, 1, 0, 0, 0)),
                body,
                compress_type=zipfile.ZIP_DEFLATED,
            )
    return out.getvalue()
