"""The views to capture: a views file (id,product,url[,settle_ms] | id<TAB>url | url), URLs given as arguments, and
a sitemap's pages (jfi.capture.sitemap)."""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from ..errors import JfiError
from ..manifest import NAME_MAX, name_problem


@dataclass
class View:
    view_id: str
    product: str
    url: str
    settle_ms: int


def _url(raw: str, base: str | None, where: tuple[str, int]) -> str:
    raw = raw.strip()
    if base and raw.startswith("/"):
        return urllib.parse.urljoin(base, raw)
    parts = urllib.parse.urlsplit(raw)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        hint = " (a path needs --serve or --base-url)" if raw.startswith("/") else ""
        raise JfiError(
            "invalid_url", f"{raw!r} is not an absolute http(s) URL{hint}", source=where[0], line=where[1], field="url"
        )
    return raw


def is_origin(text: str) -> bool:
    parts = urllib.parse.urlsplit(text)
    return (
        parts.scheme in ("http", "https")
        and bool(parts.netloc)
        and parts.path in ("", "/")
        and not parts.query
        and not parts.fragment
    )


def _host(url: str) -> str:
    return urllib.parse.urlsplit(url).netloc


def _line(line: str, number: int, position: int, source: str, settle_ms: int, base: str | None) -> View:
    """One line of a views file as a view, or the refusal that names its problem."""
    where = (source, number)
    if "," in line:
        parts = [p.strip() for p in line.split(",")]
        if len(parts) not in (3, 4) or not parts[0] or not parts[1]:
            raise JfiError("invalid_view", "expected id,product,url[,settle_ms]", source=source, line=number)
        settle = settle_ms
        if len(parts) == 4:
            if not re.fullmatch(r"[0-9]{1,6}", parts[3]):
                raise JfiError(
                    "invalid_view",
                    f"settle_ms must be up to 6 digits, got {parts[3][:40]!r}",
                    source=source,
                    line=number,
                    field="settle_ms",
                )
            settle = int(parts[3])
        view = View(parts[0], parts[1], _url(parts[2], base, where), settle)
    elif "\t" in line:
        parts = [p.strip() for p in line.split("\t")]
        if len(parts) != 2 or not parts[0]:
            raise JfiError("invalid_view", "expected id<TAB>url", source=source, line=number)
        url = _url(parts[1], base, where)
        view = View(parts[0], _host(url), url, settle_ms)
    else:
        url = _url(line, base, where)
        view = View(f"V-{position:03d}", _host(url), url, settle_ms)
    for field, value in (("id", view.view_id), ("product", view.product)):
        if problem := name_problem(field, value):
            raise JfiError(
                "invalid_view" if field == "id" and len(value) <= NAME_MAX else "invalid_value",
                problem,
                source=source,
                line=number,
                field=field,
            )
    return view


def parse(
    file: Path | None,
    urls: list[str],
    *,
    settle_ms: int,
    base: str | None = None,
    only: list[str] | None = None,
    product: str | None = None,
    extra: list[View] | None = None,
) -> list[View]:
    """Every view (the views file's, the URLs', then `extra`: a sitemap's), validated before any browser starts;
    malformed lines are refused with file:line, all of them."""
    views: list[View] = []
    problems: list[JfiError] = []
    lines_of: dict[str, list[int]] = {}
    if file is not None:
        source = str(file)
        try:
            lines = Path(file).read_text(encoding="utf-8-sig").splitlines()
        except OSError as e:
            raise JfiError("unreadable_views", f"cannot read the views file: {e.strerror}", source=source) from None
        position = 0
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            position += 1
            try:
                view = _line(line, number, position, source, settle_ms, base)
            except JfiError as e:  # every bad line is reported at once, each with its number
                problems.append(e)
                continue
            views.append(view)
            lines_of.setdefault(view.view_id, []).append(number)
    for raw in urls:
        try:
            url = _url(raw, base, ("argument", 0))
        except JfiError as e:
            problems.append(e)
            continue
        views.append(View(f"V-{len(views) + 1:03d}", _host(url), url, settle_ms))
        lines_of.setdefault(views[-1].view_id, []).append(0)
        if problem := name_problem("product", views[-1].product):
            problems.append(JfiError("invalid_value", problem, source="argument", field="product"))
    for view in extra or []:
        views.append(view)
        lines_of.setdefault(view.view_id, []).append(0)
        for field, value in (("id", view.view_id), ("product", view.product)):
            if problem := name_problem(field, value):
                problems.append(JfiError("invalid_value", problem, source="sitemap", field=field))
    for view_id, numbers in lines_of.items():
        for number in numbers[1:]:
            first = f"on line {numbers[0]}" if numbers[0] else "given as an argument"
            problems.append(
                JfiError(
                    "duplicate_view",
                    f"view id {view_id!r} is also {first}",
                    source=str(file) if number else "argument",
                    line=number or None,
                    field="id",
                )
            )
    if len(problems) == 1:
        raise problems[0]
    if problems:
        problems.sort(key=lambda e: e.line or 0)
        raise JfiError(
            "invalid_views",
            f"{len(problems)} problem(s) in the views listed above; nothing captured",
            problems=[
                {"source": e.source, "line": e.line, "field": e.field, "code": e.code, "message": e.message}
                for e in problems
            ],
            exit_code=max(e.exit_code for e in problems),
        )
    selected = [v for v in views if (not only or v.view_id in only) and (not product or v.product == product)]
    if not selected:
        raise JfiError(
            "no_views",
            "no views to capture: pass --urls-file FILE (id,product,url lines), --sitemap "
            "FILE|URL or http(s) URLs as arguments" + (" (the --only/--product filter left none)" if views else ""),
        )
    return selected
