"""`jfi audit eval`: score judge runs (one model tier and one draw each) and the deterministic flags against planted
expectations. Python reads the YAML and the runs into the store and writes eval.md and eval.json; matching, scoring,
agreement and the verdict per tier are the eval_* rule files."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import yaml

from ..errors import JfiError, refuse
from ..jsonl import AtomicFiles, writer_lock
from ..output import Outcome, to_jsonable
from ..store import Store
from ..templating import render as render_template
from .folder import AuditFolder

DEFAULT_BAR = {"recall_min": 0.9, "false_alarm_max": 0.05, "inventions_max": 0}
# each key's range and type: a recall or false-alarm rate is a share (NaN and infinities are outside every range)
BAR_RANGES = {
    "recall_min": (0, 1, (int, float)),
    "false_alarm_max": (0, 1, (int, float)),
    "inventions_max": (0, 10_000, int),
}
INPUTS = "eval-inputs.json"  # what the last eval read, so that `jfi query --inventory` sees its views too
VIEWS = ("eval_verdicts", "eval_scores", "eval_agreement", "eval_pattern_groups", "eval_rows", "eval_results")


YAML_MAX_BYTES = 10_000_000
YAML_MAX_ALIASES = 20  # anchors reused a few times are a convenience; an alias bomb reuses them millions of times


class _StrictLoader(yaml.SafeLoader):
    """YAML as strictly as JSON: a key repeated in one mapping is refused at its line, never the last one kept."""

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str) and key in seen:
                raise _Repeated(key, key_node.start_mark.line + 1, seen[key])
            if isinstance(key, str):
                seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


class _Repeated(Exception):
    def __init__(self, key, line, first):
        super().__init__(key)
        self.key, self.line, self.first = key, line, first


def _compose(path: Path):
    """The YAML document and its node tree (for line numbers); a syntax error, a repeated key or more aliases than
    a small bound (an alias bomb) are refused at their line, before anything is built."""
    if not path.is_file():
        raise JfiError("missing_file", "not a regular file", source=str(path))
    if path.stat().st_size > YAML_MAX_BYTES:
        raise JfiError("invalid_yaml", f"{path.stat().st_size:,} bytes; at most {YAML_MAX_BYTES:,}", source=str(path))
    try:
        text = path.read_text(encoding="utf-8")
        aliases = 0
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                aliases += 1
                if aliases > YAML_MAX_ALIASES:
                    raise JfiError(
                        "invalid_yaml",
                        f"more than {YAML_MAX_ALIASES} aliases (*name); write the rows out",
                        source=str(path),
                        line=event.start_mark.line + 1,
                    )
        return yaml.load(text, Loader=_StrictLoader), yaml.compose(text, Loader=yaml.SafeLoader)
    except _Repeated as e:
        raise JfiError(
            "invalid_yaml",
            f"key {e.key!r} appears twice in one row (first on line {e.first})",
            source=str(path),
            line=e.line,
            field=e.key,
        ) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        raise JfiError(
            "invalid_yaml",
            str(getattr(e, "problem", None) or e).splitlines()[0],
            source=str(path),
            line=mark.line + 1 if mark else None,
        ) from None
    except UnicodeDecodeError as e:
        raise JfiError("invalid_utf8", f"not UTF-8 ({e.reason})", source=str(path)) from None


def expectation_records(path: Path) -> list[tuple[int, dict]]:
    """Each list item of expectations.yaml with the line it starts on."""
    data, root = _compose(path)
    if not isinstance(data, list) or not isinstance(root, yaml.SequenceNode):
        raise JfiError("invalid_expectations", "expectations must be a YAML list of rows", source=str(path), line=1)
    return [(node.start_mark.line + 1, item) for node, item in zip(root.value, data)]


def override_records(path: Path) -> list[tuple[int, dict]]:
    """overrides.yaml: `rows` (fields by unit id) and `invalid` (a reason by unit id), as records with an id."""
    data, root = _compose(path)
    if not isinstance(data, dict) or not isinstance(root, yaml.MappingNode):
        raise JfiError(
            "invalid_overrides", "overrides must be a YAML mapping with rows and invalid", source=str(path), line=1
        )
    out = []
    for key, value in root.value:
        if key.value not in ("rows", "invalid"):
            continue
        section = data.get(key.value) or {}
        if not isinstance(section, dict) or not isinstance(value, yaml.MappingNode):
            raise JfiError(
                "invalid_overrides", f"{key.value} must map unit ids", source=str(path), line=key.start_mark.line + 1
            )
        for unit_key, _ in value.value:
            fields = section.get(unit_key.value)
            record = {"invalid": fields} if key.value == "invalid" else fields
            out.append(
                (
                    unit_key.start_mark.line + 1,
                    {"id": unit_key.value, **(record if isinstance(record, dict) else {"invalid": record})},
                )
            )
    return out


def parse_run(text: str) -> tuple[str, str, str, Path]:
    """LABEL=DIR, the label TIER/DRAW (a label without / is its own tier, draw 1)."""
    label, sep, folder = text.partition("=")
    if not sep or not label.strip() or not folder.strip():
        raise JfiError(
            "invalid_run", f"--run takes LABEL=JUDGED_DIR, e.g. sonnet/1=runs/sonnet-1; got {text!r}", exit_code=3
        )
    tier, _, draw = label.strip().partition("/")
    path = Path(folder.strip())
    if not path.is_dir():
        raise JfiError("no_run_folder", f"{path} is not a folder of *.judged.jsonl files", source=str(path))
    return label.strip(), tier, draw or "1", path


def bar_of(expectations: Path) -> dict:
    """eval.toml beside the expectations ([promotion] or top level), else the defaults."""
    path = expectations.parent / "eval.toml"
    if not path.exists() and not path.is_symlink():
        return dict(DEFAULT_BAR)
    if not path.is_file() or path.is_symlink():
        raise JfiError("invalid_toml", "eval.toml must be a regular file", source=str(path))
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise JfiError("invalid_toml", str(e), source=str(path)) from None
    if "promotion" in doc:
        if not isinstance(doc["promotion"], dict) or set(doc) != {"promotion"}:
            raise JfiError(
                "invalid_toml",
                "promotion must be a table ([promotion] with recall_min, false_alarm_max, "
                "inventions_max), and the only key beside it",
                source=str(path),
                field="promotion",
            )
        doc = doc["promotion"]
    unknown = sorted(set(doc) - set(DEFAULT_BAR))
    if unknown:
        raise JfiError(
            "invalid_toml",
            f"unknown key(s) {', '.join(unknown)}; the bar takes {', '.join(DEFAULT_BAR)}",
            source=str(path),
            field=unknown[0],
        )
    out = dict(DEFAULT_BAR)
    for key, (low, high, kind) in BAR_RANGES.items():
        if key in doc:
            value = doc[key]
            if isinstance(value, bool) or not isinstance(value, kind) or not low <= value <= high:
                raise JfiError(
                    "invalid_toml",
                    f"{key} must be {'a whole number' if kind is int else 'a number'} from "
                    f"{low} to {high}, got {value!r}",
                    source=str(path),
                    field=key,
                )
            out[key] = value
    return out


def _add(store: Store, kind: str, source: Path, records: list[tuple[int, dict]]) -> None:
    """YAML records as JSON lines numbered by the YAML line they start on."""
    store.add_file(
        kind, source, [json.dumps(r, ensure_ascii=False, default=str) for _, r in records], [n for n, _ in records]
    )


def load_inputs(store: Store, expectations: Path, overrides: Path | None, runs: list[str]) -> None:
    """Expectations, overrides, the runs' judged lines, the runs and the bar, into the store (before it is built)."""
    _add(store, "expectation", expectations, expectation_records(expectations))
    if overrides is not None:
        _add(store, "override", overrides, override_records(overrides))
    parsed = [parse_run(r) for r in runs]
    labels = [p[0] for p in parsed]
    if len(set(labels)) != len(labels):
        raise JfiError("invalid_run", "each --run needs its own label", exit_code=3)
    folders = [p[3].resolve() for p in parsed]
    twice = sorted({str(f) for f in folders if folders.count(f) > 1})
    if twice:  # one run under two labels would score as perfect agreement with itself
        raise JfiError(
            "invalid_run",
            f"{twice[0]} is given under two labels; each --run is a run of its own",
            source=twice[0],
            exit_code=3,
        )
    rows = [(0, "flags", "flags", "0", "")] + [
        (i, label, tier, draw, str(folder)) for i, (label, tier, draw, folder) in enumerate(parsed, 1)
    ]
    store.append(
        "eval_runs",
        {
            "run": [r[0] for r in rows],
            "label": [r[1] for r in rows],
            "tier": [r[2] for r in rows],
            "draw": [r[3] for r in rows],
            "folder": [r[4] for r in rows],
        },
    )
    for run, (_, _, _, folder) in enumerate(parsed, 1):
        for path in sorted(folder.glob("*.judged.jsonl")):
            store.add_file("eval_judged", path, round_no=run)
    bar = bar_of(expectations)
    store.append("eval_settings", {k: [v] for k, v in bar.items()})


def load_saved(store: Store, root: Path) -> None:
    """The inputs of the folder's last eval, for queries (nothing when there was none or they moved)."""
    path = root / INPUTS
    if not path.is_file():
        return
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        load_inputs(
            store,
            Path(saved["expectations"]),
            Path(saved["overrides"]) if saved.get("overrides") else None,
            saved.get("runs", []),
        )
    except (JfiError, OSError, ValueError, KeyError, TypeError):
        return


def evaluate(folder: AuditFolder, expectations: Path, overrides: Path | None, runs: list[str]) -> Outcome:
    folder.require_built()
    for path in (expectations, overrides):
        if path is not None and not path.is_file():
            raise JfiError("no_file", f"{path} does not exist", source=str(path))
    with writer_lock(folder.root):
        store = folder.load_for_reading(before_build=lambda s: load_inputs(s, expectations, overrides, runs))[0]
        try:
            refuse(
                store.rows(
                    "SELECT source, line, record_id, field, code, message FROM field_violations "
                    "WHERE kind IN ('expectation', 'override', 'eval_judged') ORDER BY source, line, field"
                ),
                "invalid_input",
                "problem(s) listed above; nothing written",
            )
            result = {view: store.rows(f"SELECT * FROM {view}") for view in VIEWS}
            result["bar"] = store.rows("SELECT * FROM eval_settings")[0]
            result["rulebook_sha256"] = store.rulebook_sha256
        finally:
            store.close()
        result["expectations"], result["overrides"] = str(expectations), str(overrides) if overrides else None
        inputs = {
            "expectations": str(expectations.resolve()),
            "overrides": str(overrides.resolve()) if overrides else None,
            "runs": [f"{label}={folder_.resolve()}" for label, _, _, folder_ in (parse_run(r) for r in runs)],
        }
        with AtomicFiles() as files:
            files.write(folder.root / "eval.json", json.dumps(to_jsonable(result), ensure_ascii=False, indent=2) + "\n")
            files.write(folder.root / "eval.md", render(result))
            files.write(folder.root / INPUTS, json.dumps(inputs, indent=2) + "\n")
    verdicts = result["eval_verdicts"]
    said = [
        f"{v['tier']}: {v['verdict']}" + (f" ({'; '.join(v['reasons'])})" if v["reasons"] else "") for v in verdicts
    ]
    # the report is what eval.json holds; the command line shows each tier's verdict and where eval.md is
    return Outcome(
        0 if verdicts and all(v["promoted"] for v in verdicts) else 1,
        to_jsonable(result),
        text="\n".join([*said, str(folder.root / "eval.md")]),
    )


def _pct(x) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def render(result: dict) -> str:
    """eval.md (jfi/templates/eval.md): the table a person reads, then what each run got wrong."""
    rows = result["eval_rows"]
    scored = [r for r in rows if not r["excluded"]]
    labels = {s["run"]: s["label"] for s in result["eval_scores"]}
    text = render_template(
        "eval.md",
        expectations=result["expectations"],
        overrides=result["overrides"],
        scored=scored,
        excluded=len(rows) - len(scored),
        bar=result["bar"],
        verdicts=result["eval_verdicts"],
        scores=result["eval_scores"],
        agreement=result["eval_agreement"],
        split=[
            {**g, "pairs": list(zip(g["members"], g["judgments"]))} for g in result["eval_pattern_groups"] if g["split"]
        ],
        labels=labels,
        wrong_by_run=[
            (label, [r for r in result["eval_results"] if r["run"] == run and (not r["right"] or r["invention"])])
            for run, label in labels.items()
        ],
        problems=[r for r in rows if r["problem"] or r["excluded"]],
        pct=_pct,
    )
    return text.rstrip() + "\n"
