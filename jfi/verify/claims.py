"""The verification ledger (artifacts.jsonl, checkpoints.jsonl, claims.jsonl in a verification folder) and
the commands that append to it and read it: snapshot, checkpoint, import, gate."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..canonical import digest
from ..errors import JfiError, refuse
from ..jsonl import append_records, atomic_write, line_columns, sha256_file, strict_loads, writer_lock
from ..output import Outcome, table, utc_now
from ..paths import bytes_of, png_bytes
from ..store import Store


def norm(path) -> str:
    """One spelling per file, so pins compare: the path relative to the working directory."""
    return os.path.relpath(os.path.abspath(str(path)))


@dataclass
class VerifyFolder:
    root: Path

    @property
    def artifacts(self) -> Path:
        return self.root / "artifacts.jsonl"

    @property
    def checkpoints(self) -> Path:
        return self.root / "checkpoints.jsonl"

    @property
    def claims(self) -> Path:
        return self.root / "claims.jsonl"

    def store(self, extra_claims: Path | None = None, needs: tuple[str, ...] | None = None) -> Store:
        """The folder's files in a store; `needs`: only the rule files making these objects run (and what the store
        reads as it is made)."""
        store = Store(sections=("verify",), needs=None if needs is None else (*needs, "verify_artifact_files"))
        files = (
            ("verify_artifact", self.artifacts),
            ("verify_checkpoint", self.checkpoints),
            ("verify_claim", self.claims),
            ("verify_claim", extra_claims),
        )
        store.fit_threads(bytes_of(path for _, path in files if path is not None))
        for kind, path in files:
            if path is not None and Path(path).is_file():
                store.add_lines(kind, str(path), *line_columns(Path(path)))
        store.build()
        latest = store.rows(
            "SELECT path, sha256 FROM verify_artifact_files WHERE pos = (SELECT max(pos) FROM verify_artifact_files)"
        )
        now = [(r["path"], sha256_file(Path(r["path"])) if Path(r["path"]).is_file() else None) for r in latest]
        store.append("verify_current_files", {"path": [p for p, _ in now], "sha256": [h for _, h in now]})
        return store

    def append(self, path: Path, records: list[dict]) -> None:
        atomic_write(path, append_records(path.read_bytes() if path.exists() else b"", records))


def snapshot(folder: VerifyFolder, paths: list[Path], project: Path | None = None) -> Outcome:
    """Record the files of an artifact version. Every file must be a regular file inside the project folder (as
    resolved: no .., absolute path or symlink out of it): a version never pins /proc or another folder's files."""
    home = Path(project or ".").resolve()
    files = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files += [f for f in sorted(p.rglob("*")) if f.is_file() or f.is_symlink()]
        elif p.is_file() or p.is_symlink():
            files.append(p)
        else:
            raise JfiError("missing_file", f"{p} does not exist", source=str(p))
    outside = [f for f in files if f.is_symlink() or not f.resolve().is_relative_to(home) or not f.resolve().is_file()]
    if outside:
        raise JfiError(
            "unsafe_path",
            f"{len(outside)} file(s) outside the project folder {home} or not regular files "
            f"(a symlink, a device, /proc): {', '.join(str(f) for f in outside[:5])}",
            source=str(outside[0]),
        )
    entries = sorted({norm(f): sha256_file(f) for f in files}.items())
    record = {"files": [{"path": path, "sha256": sha} for path, sha in entries]}
    record = {"version_id": digest(record), "created_utc": utc_now("seconds"), **record}
    folder.root.mkdir(exist_ok=True)  # the first snapshot starts the folder
    with writer_lock(folder.root):
        folder.append(folder.artifacts, [record])
    return Outcome(0, record, lines=[f"version {record['version_id']}: {len(entries)} file(s)"], printed=False)


def checkpoint(folder: VerifyFolder, screenshot: Path, version: str | None, changes: str, known_issues: str) -> Outcome:
    image = png_bytes(Path(screenshot), source=str(screenshot))  # a PNG image, a regular file (not a link)
    if image is None:
        raise JfiError("missing_file", f"screenshot {screenshot} does not exist", source=str(screenshot))
    with writer_lock(folder.root):
        store = folder.store()
        try:
            versions = [
                r[0]
                for r in store.con.execute(
                    "SELECT DISTINCT version_id, pos FROM verify_artifact_files ORDER BY pos"
                ).fetchall()
            ]
        finally:
            store.close()
        if not versions:
            raise JfiError("no_version", "record an artifact version first: jfi verify snapshot PATH...")
        version = version or versions[-1]
        if version not in versions:
            raise JfiError("unknown_version", f"no artifact version {version}")
        body = {
            "version_id": version,
            "screenshot": {"path": norm(screenshot), "sha256": hashlib.sha256(image).hexdigest()},  # the bytes checked
            "changes": changes,
            "known_issues": known_issues,
        }
        record = {"checkpoint_id": digest(body), **body, "created_utc": utc_now("seconds")}
        folder.append(folder.checkpoints, [record])
    return Outcome(0, record, lines=[f"checkpoint {record['checkpoint_id']} on version {version}"], printed=False)


def _check_claims(folder: VerifyFolder, source: Path) -> None:
    store = folder.store(extra_claims=source)
    try:
        bad = store.rows("SELECT * FROM verify_claim_violations WHERE source = ?", [str(source)])
    finally:
        store.close()
    refuse(bad, "invalid_claims", "problem(s) listed above; nothing imported")


def import_claims(folder: VerifyFolder, source: Path) -> Outcome:
    """Take in claims made elsewhere (external verdicts, or jfi verify measure's lines), all or nothing."""
    if not Path(source).is_file():
        raise JfiError("missing_file", f"{source} does not exist", source=str(source))
    if not folder.root.is_dir():  # the first import starts the folder, once its claims are known to be good
        _check_claims(folder, source)
        folder.root.mkdir()
    with writer_lock(folder.root):
        _check_claims(folder, source)
        records = []
        numbers, texts = line_columns(Path(source))
        for text in texts:
            rec = strict_loads(text)  # checked above, line by line; read as strictly as it was checked
            rec["inputs"] = [{**i, "path": norm(i["path"])} for i in rec["inputs"]]
            rec.setdefault("imported_utc", utc_now("seconds"))
            records.append(rec)
        folder.append(folder.claims, records)
    return Outcome(0, {"claims": records}, lines=[f"{len(records)} claim(s) imported"], printed=False)


def gate(folder: VerifyFolder) -> Outcome:
    lines: list[str] = []  # what it tells its user (the command line prints them)
    store = folder.store()
    try:
        rows = store.rows("SELECT * FROM verify_gate")
        cp = store.rows(
            "SELECT c.*, s.state FROM verify_checkpoints AS c JOIN verify_checkpoint_states AS s "
            "USING (checkpoint_id) ORDER BY c.pos DESC LIMIT 1"
        )
        evidence = (
            store.rows(
                "SELECT e.* FROM verify_valid_evidence AS e WHERE e.checkpoint_id = ? ORDER BY pos",
                [cp[0]["checkpoint_id"]],
            )
            if cp
            else []
        )
        inputs = (
            store.rows(
                "SELECT DISTINCT i.path, i.role FROM (SELECT unnest(inputs) AS i, pos FROM verify_claims) "
                "WHERE pos IN (SELECT pos FROM verify_valid_evidence WHERE checkpoint_id = ?) ORDER BY 1",
                [cp[0]["checkpoint_id"]],
            )
            if cp
            else []
        )
    finally:
        store.close()
    lines.append(
        table(
            ["condition", "holds", "evidence"],
            [(r["condition"], "yes" if r["holds"] else "NO", r["evidence"]) for r in rows],
            title="Completion gate",
        )
    )
    if cp:
        c = cp[0]

        def tally(kind):
            got = [e["result"] for e in evidence if e["kind"] == kind]
            return ", ".join(f"{got.count(x)} {x}" for x in ("PASS", "FAIL", "INSUFFICIENT") if got.count(x)) or "none"

        uncertain = [e["claim"] for e in evidence if e["result"] == "INSUFFICIENT"]
        lines.append("\nSummary")
        lines.append(f"  checkpoint: {c['checkpoint_id']} ({c['state']}) on version {c['version_id']}")
        lines.append(f"  inputs: {', '.join(i['path'] + ' [' + i['role'] + ']' for i in inputs) or 'none'}")
        lines.append(f"  tools: {', '.join(sorted({e['verifier'] for e in evidence})) or 'none'}")
        lines.append(f"  spatial result: {tally('spatial')}")
        lines.append(f"  visual result: {tally('visual')}")
        left = uncertain + ([c["known_issues"]] if c["known_issues"] else [])
        lines.append(f"  remaining uncertainty: {'; '.join(left) or 'none recorded'}")
    failing = [r for r in rows if not r["holds"]]
    report = {"conditions": rows, "checkpoint": cp[0] if cp else None, "evidence": evidence, "inputs": inputs}
    return Outcome(1 if failing else 0, report, lines=lines, printed=False)
