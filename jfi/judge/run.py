"""`jfi audit judge`: each batch's kit (judge-kit/<batch>/: rubric, instructions, product note, batch) sent to a model
over the chat completions protocol, its reply checked line by line against the judged-line contract (the rulebook's
own rules: field_violations and audit_judged_violations), sent back once with the problems when it breaks it, and
written as batches/<batch>.judged.jsonl only when every line holds: all the judged files of a run in one commit.
Every answer is cached under judge-cache/ as it arrives, by the sha256 of its request's bytes (model, messages,
parameters), so a run again (after a kill too), or a build again with unchanged batches, sends nothing; `--no-cache`
asks again (a batch whose answers broke the contract, say); judge-runs.jsonl records each batch's model, tokens,
latency and outcome for the calibration record."""

from __future__ import annotations

import base64
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import JfiError, clip, format_location
from ..jsonl import AtomicFiles, append_records, writer_lock
from ..output import Outcome, utc_now
from ..paths import own_folder, regular_file
from ..progress import Progress
from ..schemas import schema
from ..store import Store
from .asking import Asker, _key, parse_lines, request_bytes
from .client import Answer, Client, EndpointError, chat_url

RUNS = "judge-runs.jsonl"  # in the audit folder: a line per batch a run judged (or failed)
KIT = "judge-kit"
ASKED = ("id", "judgment", "confidence", "rationale", "fix", "needs_human")  # drafted_by is the endpoint's model id


@dataclass
class Batch:
    name: str  # the batch file's name without .jsonl
    kit: dict[str, str]  # rubric, instructions, product, batch: the kit's four texts
    crops: dict[str, bytes] = field(default_factory=dict)  # unit id -> its crop (judge-kit --images), for --images
    lines: list[dict] = field(default_factory=list)
    answer: Answer | None = None
    cached: bool = False
    problems: list[str] = field(default_factory=list)
    sent_back: bool = False


def line_schema() -> dict:
    """The judged line as the model is asked for it: the contract's fields but drafted_by (jfi writes the model id)."""
    whole = schema("judged")
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(ASKED),
        "properties": {
            k: {kk: vv for kk, vv in v.items() if kk != "description"} | {"description": v["description"]}
            for k, v in whole["properties"].items()
            if k in ASKED
        },
    }


def response_format() -> dict:
    return {
        "type": "json_schema",
        "json_schema": {
            "name": "judged_batch",
            "strict": True,
            "schema": {
                "type": "object",
                "additionalProperties": False,
                "required": ["lines"],
                "properties": {"lines": {"type": "array", "items": line_schema()}},
            },
        },
    }


def messages(kit: dict[str, str], crops: dict[str, bytes] | None = None) -> list[dict]:
    """Exactly the kit's four things: the instructions and rubric as the system's words, the product note and the
    batch as the user's; with crops (--images), each image row's crop after them as a data URL, named by its id."""
    text = (
        kit["product"] + "\n\n# Batch\n\n" + kit["batch"] + "\n"
        'Answer with a JSON object {"lines": [...]}: one judged line per batch line, in the batch\'s order.'
    )
    user: str | list = text
    if crops:
        user = [{"type": "text", "text": text}]
        for uid, png in sorted(crops.items()):
            user += [
                {"type": "text", "text": f"Crop of {uid} (the element outlined in red):"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode()}},
            ]
    return [
        {"role": "system", "content": kit["instructions"] + "\n\n" + kit["rubric"]},
        {"role": "user", "content": user},
    ]


def kits(root: Path, only: list[str] | None) -> list[Batch]:
    """Each batch's kit as judge-kit wrote it, checked to be the batch build wrote now (a kit from before a build is
    stale)."""
    kit_root = root / KIT
    if not own_folder(kit_root):
        raise JfiError(
            "no_kit", f"no {KIT}/ in {root}; run `jfi audit judge-kit --inventory {root}` first", source=str(kit_root)
        )
    names = sorted(p.name for p in kit_root.iterdir() if p.is_dir() and not p.is_symlink())
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            raise JfiError("unknown_batch", f"no kit for batch(es) {', '.join(unknown)} in {KIT}/", field="--batch")
        names = [n for n in names if n in only]
    out = []
    for name in names:
        texts = {}
        for part, file in (
            ("rubric", "rubric.md"),
            ("instructions", "instructions.md"),
            ("product", "product.md"),
            ("batch", "batch.jsonl"),
        ):
            path = kit_root / name / file
            if not regular_file(path):
                raise JfiError(
                    "no_kit", f"the kit of {name} lacks {file}; run `jfi audit judge-kit` again", source=str(path)
                )
            texts[part] = path.read_text(encoding="utf-8")
        batch = root / "batches" / f"{name}.jsonl"
        if not regular_file(batch) or batch.read_text(encoding="utf-8").strip() != texts["batch"].strip():
            raise JfiError(
                "stale_kit",
                f"the kit of {name} is not the batch build wrote; run `jfi audit judge-kit` again",
                source=str(kit_root / name / "batch.jsonl"),
            )
        crops = kit_root / name / "crops"
        pictures = (
            {p.stem: p.read_bytes() for p in sorted(crops.glob("*.png")) if regular_file(p)}
            if own_folder(crops)
            else {}
        )
        out.append(Batch(name, texts, pictures))
    return out


def check(root: Path, candidates: dict[str, list[str]], out: Path | None = None) -> dict[str, list[str]]:
    """The contract's problems of judged files about to be written (name -> their lines' texts), by the rulebook's
    rules, as `file:line: field: code: message` per batch; every batch of the folder is read, as merge reads it."""
    store = Store(sections=("audit",), needs=("audit_violations",), inventory=False)
    try:
        for batch in sorted((root / "batches").glob("*.jsonl")):
            if not batch.name.endswith(".judged.jsonl"):
                store.add_file("batch", batch)
        for name, texts in candidates.items():
            store.add_file("judged", (out or root / "batches") / f"{name}.judged.jsonl", texts)
        store.build()
        rows = store.rows("SELECT * FROM audit_violations WHERE source LIKE '%.judged.jsonl'")
    finally:
        store.close()
    out: dict[str, list[str]] = {}
    for r in rows:
        name = Path(r["source"]).name[: -len(".judged.jsonl")]
        out.setdefault(name, []).append(format_location(r["source"], r["line"], r["field"], r["code"], r["message"]))
    return out


def _texts(b: Batch) -> list[str]:
    return [json.dumps(line, ensure_ascii=False) for line in b.lines]


def judge(
    root: Path,
    *,
    endpoint: str,
    model: str,
    api_key_env: str | None,
    only: list[str] | None = None,
    jobs: int = 4,
    timeout_s: float = 120.0,
    retries: int = 4,
    temperature: float = 0.0,
    dry_run: bool = False,
    use_cache: bool = True,
    images: bool = False,
    client: Client | None = None,
    second_reader: str | None = None,
    out: Path | None = None,
    seed: int | None = None,
) -> Outcome:
    """Draft every batch without a judged file in `out` (default: batches/, where merge reads them; an eval run or a
    detector writes elsewhere); `seed` makes a draw a request of its own (another answer, another cache entry)."""
    root = Path(root)
    out = Path(out) if out is not None else root / "batches"
    chat_url(endpoint)  # an endpoint that is no http(s) URL is refused before anything, a dry run's included
    if second_reader is not None:  # the spot-check sample read by another model, not the batches drafted
        from .second import _format, second_read

        client = client or Client(endpoint, _key(api_key_env), timeout_s=timeout_s, retries=retries)
        with writer_lock(root):
            return second_read(
                root,
                Asker(
                    root, client, second_reader, {"temperature": temperature, "response_format": _format()}, use_cache
                ),
                endpoint,
            )
    batches = kits(root, only)
    todo = []
    for b in batches:
        judged = out / f"{b.name}.judged.jsonl"
        if regular_file(judged):
            continue  # a judged file is there, a person's or an earlier run's: never written over
        todo.append(b)
    if not todo:
        return Outcome(1, lines=[f"every batch of {root} has its judged file; nothing to judge"])
    if images and not any(b.crops for b in batches):
        raise JfiError(
            "no_crops",
            f"no crops in {KIT}/; run `jfi audit judge-kit --images --inventory {root}` first",
            field="--images",
        )
    ask_of = {b.name: messages(b.kit, b.crops if images else None) for b in todo}
    params = {
        "temperature": temperature,
        "response_format": response_format(),
        **({"seed": seed} if seed is not None else {}),
    }
    if dry_run:
        return Outcome(
            0,
            lines=[request_bytes(model, ask_of[b.name], params).decode("utf-8") for b in todo],
            notes=[f"{len(todo)} request(s) would be sent to {endpoint} (nothing was sent)"],
        )
    client = client or Client(endpoint, _key(api_key_env), timeout_s=timeout_s, retries=retries)
    asker = Asker(root, client, model, params, use_cache)

    def ask(b: Batch, msgs: list[dict]) -> None:
        b.answer, b.cached = asker.ask(msgs)

    def read(b: Batch) -> None:
        lines = parse_lines(b.answer.text)
        if lines is None:
            b.lines, b.problems = [], [f"the reply is not JSON lines: {clip(b.answer.text, 120)!r}"]
            return
        b.lines = [
            ({**line, "drafted_by": b.answer.model or model} if isinstance(line, dict) else line) for line in lines
        ]
        b.problems = []

    shown, stepping = Progress(len(todo), "batches", "answered"), threading.Lock()

    def first(b: Batch) -> Batch:
        try:
            ask(b, ask_of[b.name])
            read(b)
        except EndpointError as e:
            b.answer, b.problems = None, [f"{endpoint}: {e}"]
        with stepping:
            shown.step(b.answer is not None, f"{b.name}: {'answered' if b.answer is not None else 'no answer'}")
        return b

    with writer_lock(root):
        with ThreadPoolExecutor(max(1, jobs)) as pool:
            done = list(pool.map(first, todo))
        _checked(root, out, [b for b in done if b.answer is not None and not b.problems])
        again = [b for b in done if b.answer is not None and b.problems]
        for b in again:  # sent back once, with what broke the contract
            b.sent_back = True
            msgs = ask_of[b.name] + [
                {"role": "assistant", "content": b.answer.text},
                {
                    "role": "user",
                    "content": "These lines break the output contract:\n"
                    + "\n".join(b.problems)
                    + "\nAnswer again with every line corrected.",
                },
            ]
            try:
                ask(b, msgs)
                read(b)
            except EndpointError as e:
                b.answer, b.problems = None, [f"{endpoint}: {e}"]
        _checked(root, out, [b for b in again if b.answer is not None and not b.problems])
        good = [b for b in done if not b.problems]
        runs = root / RUNS
        out.mkdir(parents=True, exist_ok=True)
        with AtomicFiles() as files:  # every judged file of the run, and its record, in one commit
            for b in good:
                files.write(out / f"{b.name}.judged.jsonl", "\n".join(_texts(b)) + "\n")
            old = runs.read_bytes() if regular_file(runs) else b""
            files.write(
                runs,
                append_records(
                    old,
                    [
                        {
                            "batch": b.name,
                            "utc": utc_now(),
                            "endpoint": endpoint,
                            "model": model,
                            "drafted_by": (b.answer.model or model) if b.answer else None,
                            "outcome": "failed" if b.problems else "judged",
                            "cached": b.cached,
                            "sent_back": b.sent_back,
                            "usage": b.answer.usage if b.answer else {},
                            "latency_s": b.answer.latency_s if b.answer else None,
                            "problems": b.problems[:20],
                        }
                        for b in done
                    ],
                ),
            )
    failed = len(done) - len(good)
    return Outcome(
        1 if failed else 0,
        {"judged": [b.name for b in good], "failed": [b.name for b in done if b.problems], "sent": client.sent},
        text=f"{len(good)} batch(es) judged, {failed} failed; {client.sent} request(s) sent",
        notes=[p for b in done for p in b.problems],
    )


def _checked(root: Path, out: Path, batches: list[Batch]) -> None:
    """Each batch's problems by the rulebook, its lines as they would be written."""
    if not batches:
        return
    found = check(root, {b.name: _texts(b) for b in batches}, out)
    for b in batches:
        b.problems = found.get(b.name, [])
