"""The content-inventory/v1 format that capture writes and the audit reads (they meet through it, never through
imports): its schema name, the rule for names that become file names, the screenshots' extent, and the streaming
reader of a manifest (inventory-run.json) made here or elsewhere."""

from __future__ import annotations

import codecs
import json
import re
import unicodedata
from pathlib import Path
from typing import Iterator

import ijson
from ijson.common import ObjectBuilder

from .errors import JfiError, clip
from .jsonl import _Duplicate, _keys_once, _no_constant, _NotStrict  # the strict reader's hooks

SCHEMA = "content-inventory/v1"
SHOT_MAX_HEIGHT = 10_000  # px of a view's screenshot, from the top of the page
ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
NAME_MAX = 100  # characters of a view id or product name, which become parts of file names
UNSAFE_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")  # control, invisible and unassigned characters


def name_problem(field: str, value) -> str | None:
    """Why a view id or product cannot name a file inside the audit folder (the same rule as the build's
    audit_inventory_violations), or None. A view id is letters, digits, . _ or -; a product starts with a letter
    or digit and holds no / or \\ and no control or invisible character."""
    if not isinstance(value, str):
        return f"{field} must be a string"
    if len(value) > NAME_MAX:
        return f"{field} is {len(value):,} characters; at most {NAME_MAX}"
    if field == "product":
        if (
            not value[:1].isalnum()
            or "/" in value
            or "\\" in value
            or any(unicodedata.category(ch) in UNSAFE_CATEGORIES for ch in value)
        ):
            return (
                f"product {clip(value, 80)!r} must start with a letter or digit and hold no / or \\ and no "
                "control or invisible character (it names files)"
            )
    elif not ID.match(value):
        return f"view id {clip(value, 80)!r} must be letters, digits, . _ or -"
    return None


VIEW_KEYS = ("view_id", "product", "url", "viewport", "nav_error", "final_url", "stayed_on_route_host", "inventory")
INVENTORY_KEYS = ("meta", "counts", "headings", "links", "images", "fields", "navs")
ELEMENT_LISTS = ("headings", "links", "images", "fields", "navs")


def _open(path: Path):
    if not Path(path).is_file():  # a device (/dev/zero), a folder or a fifo is never read until killed
        raise JfiError("unreadable_manifest", "not a regular file", source=str(path))
    try:
        fh = open(path, "rb")
    except OSError as e:
        raise JfiError("unreadable_manifest", f"cannot read: {e.strerror}", source=str(path)) from None
    if fh.read(3) != b"\xef\xbb\xbf":
        fh.seek(0)
    return fh


def _bad_json(path: Path, e: Exception) -> JfiError:
    return JfiError("invalid_json", f"not a JSON manifest: {clip(str(e), 200)}", source=str(path))


def _views_last(path: Path) -> bool:
    """Whether the file ends with the views array (as every content-inventory/v1 writer puts it): then the fields
    before it are all the header."""
    _open(path).close()  # a regular file we can read, or the refusal
    with open(path, "rb") as fh:
        fh.seek(max(0, path.stat().st_size - 64))
        return re.search(rb"\]\s*\}\s*$", fh.read(64)) is not None


class RepeatedKey(ValueError):
    """A key that appears twice in one object (RFC 8259 leaves its meaning open; jfi refuses it)."""


def keys_once() -> tuple[type, list]:
    """(a dict type, the keys it met twice): the objects a manifest is built of, where a key set twice in one object
    is noted (and refused by the reader), never last-wins. Noted, not raised: the C parser does not pass an exception
    from a mapping on."""
    repeats: list = []

    class KeysOnce(dict):
        def __setitem__(self, key, value):
            if key in self:
                repeats.append(key)
            dict.__setitem__(self, key, value)

    return KeysOnce, repeats


# a \uD800-\uDFFF escape that is not half of a pair, after an even run of backslashes (an escape, not text); the
# streaming parser would turn it into "?" without a word
LONE_SURROGATE = re.compile(
    rb"(?<!\\)(?:\\\\)*(?:\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<![uU][dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})"
)


SCREEN_CHUNK = 1 << 22  # bytes the screen reads at a time
INNERMOST = re.compile(rb"\[\]|\{\}")  # an empty array or object
NOT_STRUCTURE = bytes(range(256)).translate(None, b'[]{}"')  # translate() deletes these: brackets and quotes stay


def _screened(path: Path) -> tuple[int | None, int]:
    """One read of the file, in chunks, before the streaming parser sees it: (the line of the first lone surrogate
    escape, else None; how deep its arrays and objects nest, counted up to MAX_DEPTH + 1). The depth is read off the
    brackets outside strings (escaped backslashes and quotes taken out first) with bytes operations only, so it costs
    a fraction of a parse; the parser's own stack of prefixes grows with the square of the depth."""
    lines, tail, line = 1, b"", None
    inside, pending, brackets = False, b"", []
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(SCREEN_CHUNK), b""):
            block = tail + chunk
            if line is None and b"\\u" in block and (m := LONE_SURROGATE.search(block)):
                line = lines - tail.count(b"\n") + block.count(b"\n", 0, m.start())
            lines += chunk.count(b"\n")
            tail = block[-16:]
            data = pending + chunk  # a run of backslashes at a chunk's end waits for the next chunk
            run = len(data) - len(data.rstrip(b"\\"))
            pending, data = (data[len(data) - run :], data[: len(data) - run]) if run else (b"", data)
            # an adjacent pair of quotes is an empty string or two strings with nothing between them: dropped, it
            # leaves what lies outside strings as it was, and the rest to split is a fraction of the file
            structure = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, NOT_STRUCTURE)
            parts = structure.replace(b'""', b"").split(b'"')
            brackets.append(b"".join(parts[1 if inside else 0 :: 2]))
            inside ^= len(parts) % 2 == 0  # an odd number of quotes in the chunk
    nest, depth = b"".join(brackets), 0
    while nest and depth <= MAX_DEPTH:  # each pass takes off the innermost pairs: one level
        inner = INNERMOST.sub(b"", nest)  # in one pass: `{[]}` is two levels, never one
        if inner == nest:
            break  # what is left does not pair up: the parser names the problem
        nest, depth = inner, depth + 1
    return line, depth


MAX_DEPTH = 512  # arrays and objects inside one another, at most, in a JSON file read as a stream


class TooDeep(ValueError):
    """A JSON file nested deeper than MAX_DEPTH (a stream parser's prefixes would grow with the square of it)."""


def events(fh):
    """(level, event, value) of a JSON document on a binary handle, as a stream without prefixes (ijson's basic
    events): level 0 is the document's own start and end, 1 what lies directly in it, and so on. Nesting deeper
    than MAX_DEPTH raises TooDeep before it costs memory."""
    depth = 0
    for event, value in ijson.basic_parse(fh, use_float=True):
        if event in ("start_map", "start_array"):
            if depth >= MAX_DEPTH:
                raise TooDeep(f"nested more than {MAX_DEPTH} deep")
            yield depth, event, value
            depth += 1
        elif event in ("end_map", "end_array"):
            depth -= 1
            yield depth, event, value
        else:
            yield depth, event, value


def fields_before(fh, skipped: str, *, stop: bool, fields: dict) -> dict:
    """The top-level fields of the JSON object on a binary handle, read as a stream into `fields`; the value of the
    key `skipped` is never built, and with `stop` reading ends at that key (what follows is not read at all).
    A top-level key read twice raises RepeatedKey; nesting deeper than MAX_DEPTH, TooDeep."""
    builder, key, seen = None, None, set()
    mapping, repeats = keys_once()
    for level, event, value in events(fh):
        if repeats:
            raise RepeatedKey(repeats[0])
        if level == 0 or (level == 1 and event == "map_key"):
            if event == "map_key":
                if builder is not None:
                    fields[key] = builder.value
                if value in seen:  # the skipped key too, which is never stored in fields
                    raise RepeatedKey(value)
                seen.add(value)
                key, builder = value, (None if value == skipped else ObjectBuilder(map_type=mapping))
                if value == skipped and stop:
                    break
            elif event == "end_map" and builder is not None:
                fields[key], builder = builder.value, None
            continue
        if builder is not None:
            builder.event(event, value)
    if repeats:
        raise RepeatedKey(repeats[0])
    return fields


def header_of(path: Path) -> dict:
    """The manifest's fields other than its views (streamed; the views themselves are skipped when they come last)."""
    fields: dict = {}
    views_last = _views_last(path)
    with _open(path) as fh:
        try:
            fields = fields_before(fh, "views", stop=views_last, fields=fields)
            if views_last and _may_repeat_views(fh):
                fh.seek(0)
                _top_keys_once(fh)
            return fields
        except RepeatedKey as e:
            raise JfiError(
                "invalid_manifest",
                f'key "{clip(e.args[0], 60)}" appears more than once',
                source=str(path),
                field=clip(e.args[0], 60),
            ) from None
        except (ijson.JSONError, ijson.IncompleteJSONError, ValueError) as e:
            raise _bad_json(path, e) from None


VIEWS_KEY = re.compile(rb'"views"\s*:')  # inside a JSON string a quote is escaped, so only a key matches unescaped


def _may_repeat_views(fh) -> bool:
    """Whether the file holds a "views" key twice anywhere (a cheap look at the bytes; a match is then checked
    exactly by _top_keys_once)."""
    fh.seek(0)
    found, tail = 0, b""
    for chunk in iter(lambda: fh.read(1 << 20), b""):
        found += len(VIEWS_KEY.findall(tail + chunk))
        if found > 1:
            return True
        tail = chunk[-32:]
        found -= len(VIEWS_KEY.findall(tail))  # counted again with the next chunk
    return False


def _top_keys_once(fh) -> None:
    seen = set()
    for level, event, value in events(fh):
        if level == 1 and event == "map_key":
            if value in seen:
                raise RepeatedKey(value)
            seen.add(value)


def views_of(path: Path) -> Iterator[dict]:
    """Each view of the manifest, checked, one at a time (a view whose page script threw becomes a view with an
    environment note, as the reference writes it). The views are parsed one by one from a window of the file's text
    (`_views_read_whole`, about five times the streaming parser's speed, memory bounded by the largest view); a file
    that read does not take as it is (a malformed document, a key twice in one object, a view over WINDOW long) is
    read by the streaming parser, which says exactly what is wrong, the views already handed on skipped."""
    source, seen = str(path), set()
    line, depth = _screened(path)
    if line is not None:
        raise JfiError(
            "invalid_manifest",
            "a lone surrogate escape (half a character, no text of its own)",
            source=source,
            line=line,
        )
    if depth > MAX_DEPTH:
        raise JfiError(
            "invalid_json", f"nested more than {MAX_DEPTH} deep; a manifest is never that deep", source=source
        )
    n = 0
    try:
        for n, view in enumerate(_views_read_whole(path), 1):
            yield _checked_view(n - 1, view, seen, source)
    except _NotPlain:
        yield from _views_streamed(path, seen, skip=n)
    if not seen:
        raise JfiError(
            "invalid_manifest", "views must be a non-empty array of view objects", source=source, field="views"
        )


SPACE = re.compile(r"[ \t\n\r]*")  # JSON's white space
WINDOW = 1 << 24  # characters of the file's text read at a time; a view longer than this is read by the stream parser


class _NotPlain(Exception):
    """The manifest is not one `_views_read_whole` takes as it is: the streaming parser reads it (and names the problem)."""


INT_MAX = 2**63 - 1  # the streaming parser's integers: -INT_MAX to INT_MAX; beyond them it refuses the file


def _int(digits: str) -> int:
    value = int(digits)
    if -INT_MAX <= value <= INT_MAX:
        return value
    raise _NotPlain


def _float(digits: str) -> float:
    value = float(digits)
    if value - value == 0:  # finite: a number too large for a float is refused, as the streaming parser does
        return value
    raise _NotPlain


def _views_read_whole(path: Path) -> Iterator[dict]:
    """The views of a manifest, each parsed whole from a window of the file's text (Python's own strict JSON parser:
    no NaN or Infinity, no control character in a string, a key once per object), the top-level fields around them
    parsed and dropped (header_of reads them). Anything else raises _NotPlain."""
    decode = json.JSONDecoder(
        object_pairs_hook=_keys_once, parse_constant=_no_constant, parse_int=_int, parse_float=_float
    ).raw_decode
    text, at = codecs.getincrementaldecoder("utf-8")(), 0
    with open(path, "rb") as fh:
        buf, eof = "", False

        def more() -> bool:
            nonlocal buf, eof, at
            if eof:
                return False
            chunk = fh.read(WINDOW)
            eof = not chunk
            try:
                buf = buf[at:] + text.decode(chunk, final=eof)
            except UnicodeDecodeError:
                raise _NotPlain from None
            at = 0
            return not eof or bool(buf)

        def skip_space() -> str:
            nonlocal at
            while True:
                at = SPACE.match(buf, at).end()
                if at < len(buf) or not more():
                    return buf[at : at + 1]

        def value():
            nonlocal at
            start = at
            while True:
                try:
                    found, end = decode(buf, start)
                    if end < len(buf) or eof:  # a number at the window's end may go on in the next window
                        at = end
                        return found
                except (json.JSONDecodeError, RecursionError):
                    if eof:
                        raise _NotPlain from None
                except (
                    _Duplicate,
                    _NotStrict,
                ):  # a key twice in one object, NaN or Infinity (the strict reader's rules)
                    raise _NotPlain from None
                if len(buf) - start > WINDOW:
                    raise _NotPlain  # one value longer than a window
                at = start
                more()
                start = 0

        more()
        if buf.startswith("\ufeff"):
            at = 1
        if skip_space() != "{":
            raise _NotPlain
        at += 1
        while True:
            if skip_space() != '"':
                raise _NotPlain
            key = value()
            if skip_space() != ":":
                raise _NotPlain
            at += 1
            if key == "views":
                if skip_space() != "[":
                    raise _NotPlain
                at += 1
                first = True
                while (c := skip_space()) != "]":
                    if not first:
                        if c != ",":
                            raise _NotPlain
                        at += 1
                        skip_space()
                    first = False
                    yield value()
                at += 1
            else:
                skip_space()
                value()
            c = skip_space()
            at += 1
            if c == "}":
                break
            if c != ",":
                raise _NotPlain
        if skip_space() != "":
            raise _NotPlain  # anything after the document


def _checked_view(n: int, view, seen: set, source: str) -> dict:
    """The view at views[n], checked (its keys, names, id once per viewport, URL, inventory's shape)."""
    where = f"views[{n}]"
    if not isinstance(view, dict):
        raise JfiError("invalid_manifest", f"{where} must be an object", source=source, field=where)
    for key in VIEW_KEYS:
        if key not in view:
            raise JfiError("invalid_manifest", f"{where} lacks {key}", source=source, field=f"{where}.{key}")
    for key in ("view_id", "product"):
        if problem := name_problem("id" if key == "view_id" else key, view[key]):
            raise JfiError("invalid_manifest", problem, source=source, field=f"{where}.{key}")
    key = (view["view_id"], view["viewport"] if isinstance(view["viewport"], str) else None)
    if key in seen:  # a view is captured once per viewport
        raise JfiError(
            "invalid_manifest",
            f"view id {view['view_id']!r} appears twice" + (f" at viewport {key[1]}" if key[1] else ""),
            source=source,
            field=f"{where}.view_id",
        )
    seen.add(key)
    if not isinstance(view["url"], str) or not re.match(r"https?://", view["url"], re.I):
        raise JfiError(
            "invalid_manifest",
            f"{where}.url {clip(view['url'], 80)!r} is not an http(s) URL (a view is a web page)",
            source=source,
            field=f"{where}.url",
        )
    inv = view["inventory"]
    if isinstance(inv, dict) and "error" in inv and any(k not in inv for k in INVENTORY_KEYS):
        view["inventory"] = None
        view["nav_error"] = view.get("nav_error") or f"capture failed: {clip(inv['error'], 200)}"
    elif inv is not None and (not isinstance(inv, dict) or any(k not in inv for k in INVENTORY_KEYS)):
        raise JfiError(
            "invalid_manifest",
            f"{where}.inventory must hold {', '.join(INVENTORY_KEYS)}",
            source=source,
            field=f"{where}.inventory",
        )
    for key in ELEMENT_LISTS if view["inventory"] is not None else ():
        if not isinstance(inv[key], list) or not all(isinstance(e, dict) for e in inv[key]):
            raise JfiError(
                "invalid_manifest",
                f"{where}.inventory.{key} must be an array of objects",
                source=source,
                field=f"{where}.inventory.{key}",
            )
    return view


def _views_streamed(path: Path, seen: set, skip: int = 0) -> Iterator[dict]:
    """The views as the streaming parser reads them, checked; the first `skip` were handed on already (and checked
    into `seen`), so they are parsed, not handed on again."""
    source = str(path)
    with _open(path) as fh:
        n = 0
        mapping, repeats = keys_once()
        try:
            for n, view in enumerate(ijson.items(fh, "views.item", use_float=True, map_type=mapping)):
                if repeats:
                    raise RepeatedKey(repeats[0])
                if n >= skip:
                    yield _checked_view(n, view, seen, source)
        except RepeatedKey as e:
            raise JfiError(
                "invalid_manifest",
                f'key "{clip(e.args[0], 60)}" appears more than once in one object',
                source=source,
                field=f"views[{n}].{clip(e.args[0], 60)}",
            ) from None
        except (ijson.JSONError, ijson.IncompleteJSONError) as e:
            raise _bad_json(path, e) from None


def checked_header(path: Path) -> dict:
    fields = header_of(path)
    if fields.get("schema") != SCHEMA:
        raise JfiError("invalid_manifest", f"schema must be {SCHEMA!r}", source=str(path), field="schema")
    return fields


def read_manifest(path: Path) -> dict:
    """The whole manifest (for a folder that holds only inventory-run.json)."""
    return {**checked_header(path), "views": list(views_of(path))}
