"""Views from a sitemap (sitemaps.org 0.9): a file, a URL, or a path in a served folder; a sitemap index is followed
to its sitemaps (at most MAX_SITEMAPS), gzip included. Read with limits (size, entries) and with an XML parser that
refuses entity declarations. Each page's URL becomes a view:

- the view id is the URL's path: its segments joined by `-`, the last one's extension and a final `index` dropped
  (`/guide/intro.html` → `guide-intro`, `/guide/index.html` → `guide`, `/` → `home`), any other character `-`,
  a repeat numbered (`-2`, `-3`, past any id another page has already);
- the product is the site's host without `www.` and port; for a served folder, the folder's name;
- for a served folder, a page on another host is taken by its path on the served origin (the folder is the site),
  and so is every sitemap an index in the folder names: a served sitemap is never fetched and reaches no file
  outside the folder;
- a fetched sitemap lists pages of its own origin and an index sitemaps of its own origin, as the protocol says
  (`off_origin` otherwise); a local file lists pages of one origin, and a relative path in a local index is read
  beside the index, never in the working folder. A fetch has 30 s in all, however slowly the server answers.

`--include` / `--exclude` globs match the URL's path (`/guide/*`); `--max-views N` keeps the first N, in the
sitemap's order."""

from __future__ import annotations

import fnmatch
import gzip
import io
import re
import urllib.parse
from pathlib import Path

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from .. import fetch
from ..errors import JfiError, clip
from ..manifest import NAME_MAX
from .routing import origin_of
from .views import View

MAX_BYTES = 50 * 1024 * 1024  # a sitemap's bytes, inflated (the protocol's own limit)
MAX_URLS = 50_000  # entries of one sitemap (the protocol's own limit)
MAX_SITEMAPS = 50  # sitemaps an index may lead to
TIMEOUT_S = 30  # for the whole fetch of one sitemap
NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _read(source: str, site, served: bool) -> tuple[bytes, str]:
    """(bytes, where) of a sitemap: a path or URL taken in the served folder (`served`: always, for a sitemap an index
    in the folder names: a file served from the folder reaches nothing outside it), an http(s) URL, or a local file."""
    parsed = urllib.parse.urlsplit(source)
    if parsed.scheme in ("http", "https") and not served:
        try:
            data = fetch.get(
                source,
                max_bytes=MAX_BYTES,
                timeout_s=TIMEOUT_S,
                accept="application/xml, text/xml, */*",
                agent="jfi-sitemap",
            )[0]
        except (OSError, ValueError) as e:
            raise JfiError("unreadable_sitemap", f"cannot fetch: {clip(str(e), 200)}", source=source) from None
        return data, source
    if site is not None and served:
        path = site.root / urllib.parse.unquote(parsed.path).lstrip("/")
        if site.root not in path.resolve().parents:
            raise JfiError("unsafe_path", "the sitemap lies outside the served folder", source=source)
    else:
        path = Path(source)
    if not path.is_file():
        raise JfiError("unreadable_sitemap", "not a file" + (" in the served folder" if site else ""), source=source)
    with open(path, "rb") as fh:
        return fh.read(MAX_BYTES + 1), str(path)


def _parse(data: bytes, where: str):
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
                data = fh.read(MAX_BYTES + 1)
        except (OSError, EOFError) as e:
            raise JfiError("invalid_sitemap", f"not gzip: {e}", source=where) from None
    if len(data) > MAX_BYTES:
        raise JfiError("invalid_sitemap", f"over {MAX_BYTES // 2**20} MB", source=where)
    try:
        return ElementTree.fromstring(data)
    except DefusedXmlException as e:
        raise JfiError("invalid_sitemap", f"refused XML: {type(e).__name__}", source=where) from None
    except ElementTree.ParseError as e:
        raise JfiError(
            "invalid_sitemap", f"not XML: {e}", source=where, line=e.position[0] if e.position else None
        ) from None


def _served(source: str, site) -> bool:
    """Whether the sitemap the user named is read from the served folder (a path, or a URL on the served origin)."""
    parsed = urllib.parse.urlsplit(source)
    return site is not None and (
        source.startswith("/") or parsed.scheme in ("http", "https") and origin_of(source) == site.origin
    )


def _child(current: str, loc: str, served: bool, site) -> str:
    """Where a sitemap an index names is read from: in the served folder, by its path, for an index read from there;
    on the index's own origin for a fetched index (the protocol's rule; anything else is refused); beside a local
    index file for a relative path (never the working folder)."""
    if served:
        return urllib.parse.urljoin(site.origin + urllib.parse.urlsplit(current).path, loc)
    if "://" in current:
        target = urllib.parse.urljoin(current, loc)
        if origin_of(target) != origin_of(current):
            raise JfiError(
                "off_origin",
                f"{clip(loc, 120)!r} is on another origin than the index that names it "
                f"({origin_of(current)}); an index names sitemaps of its own site",
                source=current,
            )
        return target
    if urllib.parse.urlsplit(loc).scheme in ("http", "https") or Path(loc).is_absolute():
        return loc
    return str(Path(current).parent / loc)


def urls(source: str, site=None) -> list[tuple[str, str]]:
    """(page URL, the sitemap that lists it) of every page of the sitemap (an index followed), in order."""
    served = _served(source, site)
    pending, pages, seen = [source], [], 0
    while pending:
        current = pending.pop(0)
        seen += 1
        if seen > MAX_SITEMAPS + 1:
            raise JfiError("invalid_sitemap", f"the index leads to more than {MAX_SITEMAPS} sitemaps", source=source)
        root = _parse(*_read(current, site, served))
        tag = root.tag.removeprefix(NS)
        if tag not in ("urlset", "sitemapindex"):
            raise JfiError(
                "invalid_sitemap",
                f"the root element is <{clip(tag, 40)}>, not <urlset> or <sitemapindex>",
                source=current,
            )
        locs = [(e.text or "").strip() for e in root.iter(f"{NS}loc")] or [
            (e.text or "").strip() for e in root.iter("loc")
        ]
        if len(locs) > MAX_URLS:
            raise JfiError(
                "invalid_sitemap", f"{len(locs):,} entries; a sitemap holds at most {MAX_URLS:,}", source=current
            )
        if tag == "sitemapindex":
            pending += [_child(current, loc, served, site) for loc in locs if loc]
        else:
            pages += [(loc, current) for loc in locs if loc]
    return pages


def _view_id(path: str) -> str:
    parts = [p for p in urllib.parse.unquote(path).split("/") if p]
    if parts:
        parts[-1] = re.sub(r"\.[A-Za-z0-9]+$", "", parts[-1])
        if parts[-1] == "index" and len(parts) > 1:
            parts.pop()
    text = re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(parts)).strip("-._")
    return (text or "home")[: NAME_MAX - 6]


def views(
    source: str,
    *,
    site=None,
    include: list[str] | None = None,
    exclude: list[str] | None = None,
    max_views: int | None = None,
    settle_ms: int = 0,
) -> list[View]:
    """The sitemap's pages as views (see the module's rules)."""
    out: list[View] = []
    taken: set[str] = set()
    listed = urls(source, site)
    first = next((origin_of(loc) for loc, _ in listed if "://" in loc), None)
    for loc, where in listed:
        parsed = urllib.parse.urlsplit(loc)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise JfiError("invalid_sitemap", f"{clip(loc, 120)!r} is not an absolute http(s) URL", source=where)
        # a sitemap lists pages of its own site: the origin it was fetched from, else one origin for all (a served
        # folder's pages are taken by their path on the served origin)
        own = origin_of(where) if "://" in where and not _served(source, site) else first
        if site is None and origin_of(loc) != own:
            raise JfiError(
                "off_origin",
                f"{clip(loc, 120)!r} is on another origin than the sitemap's pages ({own}); "
                "a sitemap lists the pages of one site",
                source=where,
            )
        path = parsed.path or "/"
        if include and not any(fnmatch.fnmatchcase(path, g) for g in include):
            continue
        if exclude and any(fnmatch.fnmatchcase(path, g) for g in exclude):
            continue
        url = loc
        if site is not None and site.origin != f"{parsed.scheme}://{parsed.netloc}":
            url = urllib.parse.urlunsplit((*urllib.parse.urlsplit(site.origin)[:2], path, parsed.query, ""))
        product = site.root.name if site is not None else re.sub(r"^www\.", "", parsed.hostname or "")
        view_id, n = _view_id(path), 1
        while view_id in taken:  # a repeat numbered, past any id another page already has
            n += 1
            view_id = f"{_view_id(path)}-{n}"
        taken.add(view_id)
        out.append(View(view_id, product or "site", url, settle_ms))
        if max_views and len(out) >= max_views:
            break
    if not out:
        raise JfiError(
            "no_views",
            "the sitemap lists no page" + (" that --include/--exclude keep" if include or exclude else ""),
            source=source,
        )
    return out
