"""`jfi corpus fetch-images`: local image copies pinned by SHA-256 (the only writer of image_file/image_sha256)."""

from __future__ import annotations

import hashlib
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from ..errors import JfiError
from ..fetch import get as http_get
from ..jsonl import atomic_write, update_records, writer_lock
from ..output import Outcome, note, say
from ..paths import inside
from ..progress import Progress
from ..store import Store
from .guard import refuse_on_violations
from .project import CorpusProject, display_path

MAX_BYTES = 8 * 1024 * 1024
TIMEOUT_S = 20


@dataclass
class ImageType:
    ext: str
    media_types: list[str]
    url_exts: list[str]
    magic: bytes | None
    offset: int

    def matches(self, data: bytes) -> bool:
        if self.magic is None:  # svg: text whose first element is <svg>
            head = data[:4096].decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n").lower()
            return "<svg" in head and "<html" not in head
        return data[self.offset : self.offset + len(self.magic)] == self.magic


def image_types(store: Store) -> list[ImageType]:
    return [
        ImageType(
            r["ext"],
            r["media_types"],
            r["url_exts"],
            bytes.fromhex(r["magic_hex"]) if r["magic_hex"] else None,
            r["magic_offset"],
        )
        for r in store.rows("SELECT * FROM corpus_image_types")
    ]


def choose_type(types: list[ImageType], content_type: str, url: str) -> ImageType | None:
    """By Content-Type first, then by the URL path's extension."""
    media = content_type.split(";")[0].strip().lower()
    for t in types:
        if media in t.media_types:
            return t
    ext = Path(urllib.parse.urlsplit(url).path).suffix.lower().lstrip(".")
    for t in types:
        if ext in t.url_exts:
            return t
    return None


def data_uri(url: str) -> tuple[bytes, str]:
    """The bytes and media type of a data: URI (base64 or percent-encoded)."""
    import base64

    head, sep, body = url[5:].partition(",")
    if not sep:
        raise ValueError("a data: URI without a comma")
    media = head.split(";")[0] or "text/plain"
    try:
        data = (
            base64.b64decode(body, validate=False) if head.endswith(";base64") else urllib.parse.unquote_to_bytes(body)
        )
    except ValueError as e:
        raise ValueError(f"the data: URI does not decode ({e})") from None
    if len(data) > MAX_BYTES:
        raise ValueError(f"larger than {MAX_BYTES // (1024 * 1024)} MiB")
    return data, media


def _target(project: CorpusProject, item: dict, types: list[ImageType]) -> tuple[Path | None, list[Path]]:
    """Where the item's copy goes (the image_file it names, checked to stay inside the project), or None when the
    type decides it; and the copies already on disk under the folder's naming (<folder>/<id>.<ext>) to adopt."""
    where = dict(source=display_path(project.corpus_path), line=item["line"], field="image_file")
    if item["image_file"]:
        path = inside(project.root, item["image_file"], under=item["folder"].split("/")[0], **where)
        return path, [path] if path.is_file() else []
    candidates = [project.root / item["folder"] / f"{item['item_id']}.{t.ext}" for t in types]
    return None, [p for p in candidates if p.is_file()]


def _copy(project: CorpusProject, item: dict, types: list[ImageType]) -> tuple[Path, str]:
    """Archive one item's image (or adopt a copy already on disk): (its path, its sha256). A copy must be an image
    type jfi keeps, and hash to what the item pinned when it pinned it; nothing is written otherwise."""
    target, existing = _target(project, item, types)
    if existing:
        data = existing[0].read_bytes()
        path = existing[0]
    else:
        url = item["image_url"]
        data, content_type = (
            data_uri(url)
            if url.startswith("data:")
            else http_get(url, max_bytes=MAX_BYTES, timeout_s=TIMEOUT_S, accept="image/*", agent="jfi-fetch-images")
        )
        kind = (
            choose_type(types, content_type, url)
            if target is None
            else next((t for t in types if target.suffix.lower().lstrip(".") == t.ext), None)
        )
        if kind is None:
            raise ValueError(f"not an image type jfi keeps (Content-Type {content_type or 'none'})")
        if not kind.matches(data):
            raise ValueError(f"bytes are not a {kind.ext} image (Content-Type {content_type or 'none'})")
        path = target or project.root / item["folder"] / f"{item['item_id']}.{kind.ext}"
    digest = hashlib.sha256(data).hexdigest()
    if item["image_sha256"] and digest != item["image_sha256"]:
        raise ValueError(
            f"the image hashes to {digest[:12]}…, not the {item['image_sha256'][:12]}… the item pinned "
            "(it changed since it was harvested); nothing written"
        )
    if not existing:
        atomic_write(path, data)
    return path, digest


def fetch(project: CorpusProject, *, dry_run: bool = False) -> Outcome:
    """Archive every image the corpus still lacks on disk, under every profile: the round formats name the copy
    (corpus/images/<id>.<ext>) and pin it; a harvest item that already names and pins its copy
    (pool/images/<id>.<ext>) gets those exact bytes or nothing."""
    with writer_lock(project.root):
        store = project.store()
        try:
            refuse_on_violations(store, [display_path(project.corpus_path)], "fetch-images")
            due = store.rows(
                "SELECT item_id, line, image_url, image_file, image_sha256, folder FROM corpus_image_fetch_due"
            )
            types = image_types(store)
        finally:
            store.close()
        if not due:
            return Outcome(0, lines=["every item with an image_url has its local copy; nothing to fetch"])
        for item in due:  # every path an item names is checked before anything is fetched or written
            _target(project, item, types)
        if dry_run:
            return Outcome(0, lines=[f"{item['item_id']}: would {_plan(project, item, types)}" for item in due])
        recorded, failures = [], []
        progress = Progress(len(due), "images", "failed")
        for item in due:
            try:
                path, digest = _copy(project, item, types)
                recorded.append((item, path.relative_to(project.root).as_posix(), digest))
                progress.step(True)
            except (OSError, ValueError, urllib.error.URLError) as e:
                failures.append((item, str(getattr(e, "reason", None) or e)))
                progress.step(False)
        changed = [
            (item, rel, digest)
            for item, rel, digest in recorded
            if (item["image_file"], item["image_sha256"]) != (rel, digest)
        ]
        if changed:
            update_records(
                project.corpus_path,
                [
                    (item["line"], lambda rec, f=rel, h=digest: rec.update(image_file=f, image_sha256=h))
                    for item, rel, digest in changed
                ],
            )
    return Outcome(
        1 if failures else 0,
        {
            "copied": [{"item_id": item["item_id"], "image_file": rel, "image_sha256": h} for item, rel, h in recorded],
            "failed": [{"item_id": item["item_id"], "reason": reason} for item, reason in failures],
        },
        printed=False,
        lines=[f"{item['item_id']}: {rel} sha256:{digest[:12]}" for item, rel, digest in recorded]
        + [f"{len(recorded)} copied, {len(failures)} failed"],
        notes=[
            f"{display_path(project.corpus_path)}:{item['line']}: image_url: fetch_failed: "
            f"{item['item_id']}: {item['image_url'][:200]}: {reason}"
            for item, reason in failures
        ],
    )


def _plan(project: CorpusProject, item: dict, types) -> str:
    """What fetch would do for an item: adopt the copy already on disk, or fetch its URL."""
    _, existing = _target(project, item, types)
    return "adopt " + display_path(existing[0]) if existing else "fetch " + item["image_url"][:120]


def verify(project: CorpusProject) -> int:
    """Re-hash every referenced copy: missing or mismatched is exit 2; orphans are reported."""
    store = project.store(hash_images=True)
    try:
        rows = store.rows("""SELECT i.id, i.line, i.image_file, i.image_sha256, c.present, c.sha256
                             FROM corpus_items AS i JOIN image_copies AS c ON c.path = i.image_file ORDER BY i.line""")
    finally:
        store.close()
    bad = 0
    for r in rows:
        where = f"{display_path(project.corpus_path)}:{r['line']}: image_file"
        if not r["present"]:
            note(f"{where}: missing_copy: {r['image_file']} is missing")
            bad += 1
        elif r["sha256"] != r["image_sha256"]:
            note(f"{where}: hash_mismatch: {r['image_file']} hashes to {r['sha256']}, not {r['image_sha256']}")
            bad += 1
    referenced = {(project.root / r["image_file"]).resolve() for r in rows}
    orphans = (
        sorted(p for p in project.images_dir.glob("*") if p.is_file() and p.resolve() not in referenced)
        if project.images_dir.is_dir()
        else []
    )
    for p in orphans:
        say(f"orphan: {display_path(p)} is not referenced by any item")
    say(f"{len(rows)} copie(s) checked: {len(rows) - bad} ok, {bad} missing or mismatched, {len(orphans)} orphan(s)")
    if bad:
        raise JfiError("copies_invalid", f"{bad} local cop{'y' if bad == 1 else 'ies'} missing or mismatched")
    return 0
