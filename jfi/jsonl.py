"""Strict line-numbered JSONL reading and byte-preserving rewrites (atomic writes and locks: jfi.atomic)."""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .atomic import AtomicFiles, atomic_write, file_key, writer_lock  # noqa: F401  (re-exported for callers)
from .errors import JfiError, clip

BOM = b"\xef\xbb\xbf"


@dataclass
class Line:
    number: int  # 1-based physical line number
    text: str  # content without terminator
    raw: bytes  # exact bytes including the terminator (if any)


def split_lines(data: bytes, source=None) -> tuple[bytes, list[Line]]:
    """Split file bytes into physical lines; returns (bom, lines). Blank lines are kept; bad UTF-8 is refused."""
    bom = b""
    if data.startswith(BOM):
        bom, data = BOM, data[len(BOM) :]
    decode_utf8(data, source)  # refused whole, at the line of the first bad byte; each line then decodes cleanly
    lines: list[Line] = []
    parts = data.split(b"\n")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if last and part == b"":
            break  # a final newline does not start another line
        raw = part if last else part + b"\n"
        body = part[:-1] if part.endswith(b"\r") else part
        lines.append(Line(i + 1, body.decode("utf-8"), raw))
    return bom, lines


def decode_utf8(data: bytes, source) -> str:
    """Bytes as UTF-8 text; invalid UTF-8 is refused with the line it is on, never replaced."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        raise JfiError(
            "invalid_utf8",
            f"not UTF-8: byte {data[e.start : e.start + 1]!r} at column {e.start - line_start + 1}",
            source=str(source) if source else None,
            line=data.count(b"\n", 0, e.start) + 1,
        ) from None


class _Duplicate(Exception):
    pass


def _no_duplicates(pairs):
    if len(pairs) > 1:
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise _Duplicate(next(k for k in keys if keys.count(k) > 1))
    return None  # nothing is built: this pass only looks


class _NotStrict(ValueError):
    pass


def _no_constant(name: str):
    raise _NotStrict(f"{name} is not a JSON number (RFC 8259)")


ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.S)


def _lone_surrogate(text: str) -> str | None:
    """The first \\uD800-\\uDFFF escape of a JSON text that is not half of a pair, else None."""
    pending = None  # (end, escape) of a high surrogate waiting for its low half
    for m in ESCAPE.finditer(text):
        code = int(m.group(1)[1:], 16) if m.group(1)[0] == "u" else None
        if pending is not None:
            if m.start() == pending[0] and code is not None and 0xDC00 <= code <= 0xDFFF:
                pending = None
                continue
            return pending[1]
        if code is not None and 0xD800 <= code <= 0xDBFF:
            pending = (m.end(), m.group())
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return m.group()
    return pending[1] if pending else None


def strict_loads(text: str, **hooks):
    """json.loads as strict as RFC 8259: NaN, Infinity and a lone surrogate escape (no character of its own) are
    refused like a trailing comma, a comment or a single quote (ValueError)."""
    value = json.loads(text, parse_constant=_no_constant, **hooks)
    if "\\u" in text and (lone := _lone_surrogate(text)):
        raise _NotStrict(f"{lone} is half a character (a lone surrogate escape)")
    return value


def json_problems(source: str, numbers: list[int], texts: list[str]) -> list[dict]:
    """What SQL cannot see in a line: a key repeated in any object, nesting too deep to read, or what DuckDB's JSON
    reader takes but RFC 8259 does not (a trailing comma, NaN, a lone surrogate escape). One row per bad line in the
    shape of the violation views; a line the reader refuses is reported by its message (jsonl_line_violations)."""
    rows = []
    for number, text in zip(numbers, texts):
        problem = None
        try:
            strict_loads(text, object_pairs_hook=_no_duplicates)
        except _Duplicate as d:
            problem = (clip(d.args[0], 60), f'key "{clip(d.args[0], 60)}" appears more than once')
        except RecursionError:
            problem = (None, "nested too deeply to read")
        except json.JSONDecodeError as e:
            problem = (None, f"not valid JSON: {e.msg} at column {e.colno}")
        except ValueError as e:
            problem = (None, f"not valid JSON: {e}")
        if problem:
            rows.append(
                {
                    "source": source,
                    "line": number,
                    "record_id": None,
                    "field": problem[0],
                    "code": "invalid_json",
                    "message": problem[1],
                }
            )
    return rows


def _keys_once(pairs):
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _Duplicate(next(k for k, _ in pairs if [q for q, _ in pairs].count(k) > 1))
    return value


def parse_json(text: str | bytes, source, line: int | None = None, *, keys_once: bool = False):
    """One JSON document, or a refusal naming the file and line (bad JSON, bad UTF-8, nesting too deep; with
    keys_once, a key repeated in an object, where the last one would silently win)."""
    if isinstance(text, bytes):
        text = decode_utf8(text, source)
    try:
        return strict_loads(text, **({"object_pairs_hook": _keys_once} if keys_once else {}))
    except _Duplicate as d:
        raise JfiError(
            "invalid_json", f'key "{clip(d.args[0], 60)}" appears more than once', source=str(source), line=line
        ) from None
    except RecursionError:
        raise JfiError("invalid_json", "nested too deeply to read", source=str(source), line=line) from None
    except json.JSONDecodeError as e:
        raise JfiError("invalid_json", e.msg, source=str(source), line=line or e.lineno) from None
    except ValueError as e:
        raise JfiError("invalid_json", str(e), source=str(source), line=line) from None


def read_lines(path: Path) -> list[Line]:
    """Non-blank lines of a JSONL file with exact 1-based numbers (blank lines are counted, not returned)."""
    _, lines = split_lines(Path(path).read_bytes(), path)
    return [ln for ln in lines if ln.text.strip()]


def line_columns(path: Path) -> tuple[list[int], list[str]]:
    """Fast path for bulk loading: parallel lists of line numbers and texts of the non-blank lines."""
    return bytes_columns(Path(path).read_bytes(), path)


def bytes_columns(data: bytes, source) -> tuple[list[int], list[str]]:
    """As `line_columns`, for a file's bytes (`source` names it in a refusal)."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    return text_columns(decode_utf8(data, source))


def tail_columns(path: Path, offset: int, lines_before: int, whole: bytes | None = None) -> tuple[list[int], list[str]]:
    """As `line_columns`, for the lines a file (or its bytes, `whole`) holds after its first `offset` bytes (which end
    with a newline and hold `lines_before` lines): the lines appended to a file read before, numbered as in the whole
    file."""
    if whole is not None:
        data = whole[offset:]
    else:
        with open(path, "rb") as fh:
            fh.seek(offset)
            data = fh.read()
    try:
        text = decode_utf8(data, path)
    except JfiError as e:
        raise JfiError(e.code, e.message, source=e.source, line=(e.line or 1) + lines_before) from None
    return text_columns(text, lines_before + 1)


def text_columns(text: str, first: int = 1) -> tuple[list[int], list[str]]:
    """The numbered non-blank lines of a text (a line's CR before its newline dropped), the first numbered `first`."""
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    if "\r" not in text and "" not in parts and not any(map(str.isspace, parts)):  # no blank line: each is a line
        return list(range(first, first + len(parts))), parts
    numbers, texts = [], []
    for i, part in enumerate(parts, first):
        if part.endswith("\r"):
            part = part[:-1]
        if part.strip():
            numbers.append(i)
            texts.append(part)
    return numbers, texts


def dumps_like(obj: dict, original: str | None) -> str:
    """Serialise a record in the same separator style as its original text (compact by default)."""
    if original is not None and '": ' in original and '","' not in original:
        return json.dumps(obj, ensure_ascii=False)
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


@dataclass
class JsonlDocument:
    """A JSONL file held as exact bytes per line, so unchanged records are rewritten byte-identically."""

    path: Path
    bom: bytes = b""
    lines: list[Line] = field(default_factory=list)
    newline: bytes = b"\n"

    @classmethod
    def load(cls, path: Path) -> "JsonlDocument":
        path = Path(path)
        data = path.read_bytes() if path.exists() else b""
        bom, lines = split_lines(data, path)
        newline = b"\r\n" if any(ln.raw.endswith(b"\r\n") for ln in lines) else b"\n"
        return cls(path, bom, lines, newline)

    def record(self, number: int) -> dict:
        return json.loads(self.lines[number - 1].text)

    def replace(self, number: int, obj: dict) -> None:
        old = self.lines[number - 1]
        text = dumps_like(obj, old.text)
        if text == old.text:
            return
        ending = old.raw[len(old.raw.rstrip(b"\r\n")) :] or self.newline
        self.lines[number - 1] = Line(number, text, text.encode("utf-8") + ending)

    def to_bytes(self) -> bytes:
        out = [self.bom]
        for i, ln in enumerate(self.lines):
            raw = ln.raw
            if i < len(self.lines) - 1 and not raw.endswith(b"\n"):
                raw += self.newline
            out.append(raw)
        return b"".join(out)


_HASHED: dict[tuple, str] = {}  # file_key -> sha256: what this command hashed, and what a kept store recorded


def forget_hashes() -> None:
    _HASHED.clear()


def known_hashes(entries) -> None:
    """(file_key as a list, sha256) pairs recorded before (by a kept store): a file whose key is the same is not read
    again."""
    for key, sha in entries:
        _HASHED[tuple(key)] = sha


def known_sha(path: Path) -> tuple[str, tuple] | None:
    """(sha256, file_key) of a file this command knows by its key (hashed, or recorded by a kept store), unread."""
    try:
        key = file_key(path)
    except OSError:
        return None
    return (_HASHED[key], key) if key in _HASHED else None


def sha256_with_prefix(path: Path, n: int) -> tuple[str, int, tuple[str, int] | None]:
    """(sha256 of a file, its size, and for its first n bytes when it is longer and they end with a newline: their
    sha256 and the newlines in them): read once, whether a file read before is that file with lines appended."""
    with open(path, "rb") as fh:
        key = file_key(path, os.fstat(fh.fileno()))
        sha, size, newlines, head, last = hashlib.sha256(), 0, 0, None, b""
        while chunk := fh.read(1 << 20):
            if head is None and size + len(chunk) >= n:
                cut = n - size
                sha.update(chunk[:cut])
                newlines += chunk.count(b"\n", 0, cut)
                last = chunk[cut - 1 : cut] if cut else last
                head = (sha.hexdigest(), newlines)
                sha.update(chunk[cut:])
            else:
                sha.update(chunk)
                if head is None:
                    newlines += chunk.count(b"\n")
                    last = chunk[-1:]
            size += len(chunk)
    _HASHED[key] = sha.hexdigest()
    return _HASHED[key], size, head if head is not None and size > n > 0 and last == b"\n" else None


def sha256_file(path: Path) -> str:
    """A file's sha256; a file whose file_key is known (hashed before by the same command, or recorded by the kept
    store) is not read again."""
    key = file_key(path)
    if key in _HASHED:
        return _HASHED[key]
    with open(path, "rb") as fh:
        key = file_key(path, os.fstat(fh.fileno()))
        _HASHED[key] = hashlib.file_digest(fh, "sha256").hexdigest()
        return _HASHED[key]


# What DuckDB's JSON reader takes and RFC 8259 refuses: a comma before a closing bracket, NaN or Infinity as a value.
# Matched on the bytes, strings included: a match only sends the file to the strict line-by-line reading.
LAX_JSON = re.compile(rb",\s*[]}]|[:,\[]\s*[-+]?(?i:nan|inf)")
TRAILING_COMMA = re.compile(rb",\s*[]}]")
BEFORE_CONSTANT = re.compile(rb"[:,\[]\s*[-+]?\Z")


def lax_json(data: bytes) -> bool:
    """Whether LAX_JSON matches, found faster: the trailing comma by its own pattern, then each nan or inf (any case)
    looked at backwards (the alternation tried at every comma and colon costs ten times as much)."""
    if TRAILING_COMMA.search(data):
        return True
    low = data.lower()
    for word in (b"nan", b"inf"):
        at = low.find(word)
        while at >= 0:
            if BEFORE_CONSTANT.search(low, max(0, at - 64), at):
                return True
            if at > 64 and not low[at - 64 : at].strip(b" \t\n\r\x0b\x0c+-"):  # a longer run of blanks: the whole test
                return bool(LAX_JSON.search(data))
            at = low.find(word, at + 1)
    return False


def sha256_and_lines(path: Path) -> tuple[str, int, bool]:
    """A file's sha256, its number of physical lines (a final newline does not start another) and whether a lax
    JSON reader may read it whole: valid UTF-8 with nothing LAX_JSON matches. Read in chunks."""
    h, lines, last, tail = hashlib.sha256(), 0, b"\n", b""
    decoder, valid = codecs.getincrementaldecoder("utf-8")(), True
    with open(path, "rb") as fh:
        key = file_key(path, os.fstat(fh.fileno()))
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
            lines += chunk.count(b"\n")
            last = chunk[-1:]
            if valid:
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError:
                    valid = False
                valid = valid and not lax_json(tail + chunk)
                tail = chunk[max(0, len(chunk.rstrip()) - 8) :]  # a match split across two chunks is still found
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        valid = False
    if file_key(path) == key:  # unchanged while it was read: known by its key to the rest of the command
        _HASHED[key] = h.hexdigest()
    return h.hexdigest(), lines + (last != b"\n"), valid


def append_records(old: bytes, records: list[dict]) -> bytes:
    """An append-only file's new bytes: its old bytes untouched (a missing final newline supplied), then the records."""
    return append_lines(old, record_lines(records))


def record_lines(records: list[dict]) -> list[str]:
    """Records as the lines append_records writes."""
    return [json.dumps(r, ensure_ascii=False) for r in records]


def append_lines(old: bytes, lines: list[str]) -> bytes:
    """As append_records, for records made lines already (record_lines)."""
    if old and not old.endswith(b"\n"):
        old += b"\n"
    return old + "".join(line + "\n" for line in lines).encode("utf-8")


def update_records(path: Path, changes: list[tuple[int, Callable[[dict], None]]]) -> None:
    """Apply in-place changes to the records on the given lines and rewrite the file atomically;
    every other line keeps its exact bytes."""
    doc = JsonlDocument.load(path)
    for number, change in changes:
        record = doc.record(number)
        change(record)
        doc.replace(number, record)
    atomic_write(path, doc.to_bytes())
