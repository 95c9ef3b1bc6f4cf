"""`jfi audit judge-kit`: per batch, a folder with the rubric, the judge instructions and output
contract, the batch, and the product-and-audience note from audit.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from .. import audit_toml
from ..errors import JfiError
from ..jsonl import AtomicFiles, line_columns, parse_json, writer_lock
from ..output import Outcome
from .folder import AuditFolder
from .kept import commits

KIT = Path(__file__).with_name("kit")
RUBRIC_FILE = "judgment-rubric.md"


def product_notes(folder: AuditFolder) -> dict[str, str]:
    path = folder.root / "audit.toml"
    config = audit_toml.read(path)
    if config is None:
        raise JfiError(
            "no_product_note",
            "judges need a product-and-audience note: write audit.toml with "
            '[products.<name>] note = "..." for every product',
            source=str(path),
        )
    products = config.get("products", {})
    notes = {}
    for name, table in products.items():
        if not isinstance(table, dict) or set(table) - {"note"} or not isinstance(table.get("note", ""), str):
            raise JfiError(
                "invalid_config",
                f'[products.{name}] holds one key, note, a string (note = "...")',
                source=str(path),
                field=f"products.{name}",
            )
        notes[name] = table.get("note", "").strip()
    return notes


def _unit_id(batch: Path, number: int, text: str) -> str:
    record = parse_json(text, batch, number)
    if not isinstance(record, dict) or not isinstance(record.get("id"), str):
        raise JfiError(
            "stale_batches",
            "a batch line must be a unit with its id; run `jfi audit build` again",
            source=str(batch),
            line=number,
        )
    return record["id"]


IMAGE_TYPES = ("image", "finding")  # the rows whose kit carries their crop with --images


@commits
def run(folder: AuditFolder, images: bool = False) -> Outcome:
    batches = (
        sorted(p for p in folder.batches.glob("*.jsonl") if not p.name.endswith(".judged.jsonl"))
        if folder.batches.is_dir()
        else []
    )
    if not batches:
        raise JfiError(
            "not_built", f"no batches in {folder.batches}; run `jfi audit build` first", source=str(folder.batches)
        )
    notes = product_notes(folder)
    units_path = folder.require_built()
    units = {
        u.get("id"): u.get("product")
        for u in parse_json(units_path.read_bytes(), units_path).get("units", [])
        if isinstance(u, dict)
    }
    batch_ids = {b.name: [_unit_id(b, n, line) for n, line in zip(*line_columns(b))] for b in batches}
    stray = sorted({f"{name}: {i}" for name, ids in batch_ids.items() for i in ids if i not in units})
    if stray:
        raise JfiError(
            "stale_batches",
            f"batch lines name units that are not built ({', '.join(stray[:5])}); run `jfi audit build` again",
        )
    missing = sorted({units[i] for ids in batch_ids.values() for i in ids} - {p for p, n in notes.items() if n})
    if missing:
        raise JfiError(
            "no_product_note",
            f"audit.toml has no note for product(s) {', '.join(missing)}; a judge needs "
            "it to read the audience's shorthand",
            source=str(folder.root / "audit.toml"),
        )
    rubric = (KIT / "rubric.md").read_text(encoding="utf-8")
    instructions = (KIT / "instructions.md").read_text(encoding="utf-8")
    with writer_lock(folder.root):
        pictured = {}
        if images:  # the crop the report shows of each image row, for a judge that reads images
            from .report import crops

            typed = {
                u.get("id"): u.get("type")
                for u in parse_json(units_path.read_bytes(), units_path).get("units", [])
                if isinstance(u, dict)
            }
            pictured = crops(folder, {i for ids in batch_ids.values() for i in ids if typed.get(i) in IMAGE_TYPES})
        _write(folder, batches, batch_ids, units, notes, rubric, instructions, pictured)
    return Outcome(
        0,
        lines=[
            f"{folder.root / 'judge-kit'}: {len(batches)} kit(s)"
            + (f", {len(pictured)} crop(s)" if images else "")
            + "; return each as batches/<batch>.judged.jsonl"
        ],
    )


def _write(folder, batches, batch_ids, units, notes, rubric, instructions, pictured) -> None:
    with AtomicFiles() as files:
        files.write(folder.root / RUBRIC_FILE, rubric)
        kit_root = folder.root / "judge-kit"
        for batch in batches:
            lines = line_columns(batch)[1]
            product = units[batch_ids[batch.name][0]]
            dest = kit_root / batch.name[: -len(".jsonl")]
            files.write(dest / "rubric.md", rubric)
            files.write(dest / "instructions.md", instructions.replace("<batch name>", batch.name[: -len(".jsonl")]))
            files.write(dest / "product.md", f"# {product}\n\n{notes[product]}\n")
            files.write(dest / "batch.jsonl", "\n".join(lines) + "\n")
            for uid in batch_ids[batch.name]:
                if uid in pictured:
                    files.write(dest / "crops" / f"{uid}.png", pictured[uid])
            for old in (dest / "crops").glob("*.png") if (dest / "crops").is_dir() else ():
                if old.stem not in pictured or old.stem not in batch_ids[batch.name]:
                    files.remove(old)
        for stale in kit_root.iterdir():
            if stale.is_dir() and not (folder.batches / f"{stale.name}.jsonl").is_file():
                shutil.rmtree(stale)
