"""`jfi corpus fetch-images`: local image copies pinned by SHA-256 (the only writer of image_file/image_sha256)."""
from __future__ import annotations

import hashlib
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ..errors import JfiError
from ..jsonl import atomic_write, sha256_file, update_records, writer_lock
from ..output import note, say
from ..progress import Progress
from ..store import Store
from .guard import refuse_on_violations
from .project import CorpusProject, display_path

MAX_BYTES = 8 * 1024 * 1024
MAX_REDIRECTS = 5
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
        return data[self.offset:self.offset + len(self.magic)] == self.magic


def image_types(store: Store) -> list[ImageType]:
    return [ImageType(r["ext"], r["media_types"], r["url_exts"],
                      bytes.fromhex(r["magic_hex"]) if r["magic_hex"] else None, r["magic_offset"])
            for r in store.rows("SELECT * FROM corpus_image_types")]


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


class _LimitedRedirects(urllib.request.HTTPRedirectHandler):
    max_redirections = MAX_REDIRECTS

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if urllib.parse.urlsplit(newurl).scheme.lower() not in ("http", "https"):
            raise urllib.error.URLError(f"redirect to a non-http(s) URL: {newurl}")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def download(url: str) -> tuple[bytes, str]:
    """GET an http(s) URL: at most 5 redirects, 20 s timeout, 8 MiB; returns (bytes, content type)."""
    if urllib.parse.urlsplit(url).scheme.lower() not in ("http", "https"):
        raise ValueError("only http(s) URLs are fetched")
    opener = urllib.request.build_opener(_LimitedRedirects())
    request = urllib.request.Request(url, headers={"User-Agent": "jfi-fetch-images", "Accept": "image/*"})
    with opener.open(request, timeout=TIMEOUT_S) as resp:
        data = resp.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise ValueError(f"larger than {MAX_BYTES // (1024 * 1024)} MiB")
        return data, resp.headers.get("Content-Type", "")


def fetch(project: CorpusProject, *, dry_run: bool = False) -> int:
    project.require_profile("round-v1", "round-v2")
    with writer_lock(project.root):
        store = project.store()
        try:
            refuse_on_violations(store, [display_path(project.corpus_path)], "fetch-images")
            due = store.rows("SELECT item_id, line, image_url FROM corpus_image_fetch_due")
            types = image_types(store)
        finally:
            store.close()
        if not due:
            say("every item with an image_url has its local copy; nothing to fetch")
            return 0
        recorded, failures = [], []
        progress = Progress(0 if dry_run else len(due), "images", "failed")
        for item in due:
            existing = [project.images_dir / f"{item['item_id']}.{t.ext}" for t in types]
            existing = [p for p in existing if p.is_file()]
            if dry_run:
                say(f"{item['item_id']}: would {'adopt ' + display_path(existing[0]) if existing else 'fetch ' + item['image_url']}")
                continue
            try:
                if existing:
                    path = existing[0]
                    digest = sha256_file(path)
                else:
                    data, content_type = download(item["image_url"])
                    kind = choose_type(types, content_type, item["image_url"])
                    if kind is None:
                        raise ValueError(f"not an image type jfi keeps (Content-Type {content_type or 'none'})")
                    if not kind.matches(data):
                        raise ValueError(f"bytes are not a {kind.ext} image (Content-Type {content_type or 'none'})")
                    path = project.images_dir / f"{item['item_id']}.{kind.ext}"
                    atomic_write(path, data)
                    digest = hashlib.sha256(data).hexdigest()
                recorded.append((item, path.relative_to(project.root).as_posix(), digest))
                progress.step(True)
            except (OSError, ValueError, urllib.error.URLError) as e:
                failures.append((item, str(getattr(e, "reason", None) or e)))
                progress.step(False)
        if dry_run:
            return 0
        if recorded:
            update_records(project.corpus_path, [
                (item["line"], lambda rec, f=rel, h=digest: rec.update(image_file=f, image_sha256=h))
                for item, rel, digest in recorded])
        for item, rel, digest in recorded:
            say(f"{item['item_id']}: {rel} sha256:{digest[:12]}")
        for item, reason in failures:
            note(f"{display_path(project.corpus_path)}:{item['line']}: image_url: fetch_failed: "
                f"{item['item_id']}: {item['image_url']}: {reason}")
        say(f"{len(recorded)} copied, {len(failures)} failed")
    return 1 if failures else 0


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
    orphans = sorted(p for p in project.images_dir.glob("*") if p.is_file() and p.resolve() not in referenced) \
        if project.images_dir.is_dir() else []
    for p in orphans:
        say(f"orphan: {display_path(p)} is not referenced by any item")
    say(f"{len(rows)} copie(s) checked: {len(rows) - bad} ok, {bad} missing or mismatched, {len(orphans)} orphan(s)")
    if bad:
        raise JfiError("copies_invalid", f"{bad} local cop{'y' if bad == 1 else 'ies'} missing or mismatched")
    return 0
