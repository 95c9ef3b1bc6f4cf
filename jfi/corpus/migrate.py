"""`jfi corpus migrate --to PROFILE`: rewrite a round-format corpus in a later profile's shape, all or nothing.

round-v1 -> round-v2: every item gains `accessible_name` and `accessible_name_source` as blanks to fill (after
`observed_alt_verdict`, upstream's field order); validation then lists what is missing.
round -> harvest: the fields both formats share carry over; statuses and fields upstream's README gives no mapping
for are refused, item by item. The round-format file is kept beside the new one (functional-images.<profile>.jsonl).
"""

from __future__ import annotations

from ..errors import JfiError
from ..jsonl import AtomicFiles, JsonlDocument, writer_lock
from ..output import Outcome
from .project import PROFILE_HEADER, CorpusProject, display_path, item_specs

NAME_FIELDS = ("accessible_name", "accessible_name_source")
# round status -> harvest status: an item not yet decided waits for a review batch; a decision taken under the round
# rules (accepted, rejected) has no harvest equivalent (keep/drop with an alt quality) and is refused
STATUS_TO_HARVEST = {"candidate": "unreviewed", "needs-revision": "unreviewed"}
# harvest field order; the value is where it comes from in a round item (None: set by the migration)
HARVEST_FIELDS = (
    "id",
    "status",
    "page_url",
    "domain",
    "sector",
    "image_url",
    "image_coord_space",
    "image_svg",
    "image_file",
    "image_sha256",
    "implementation",
    "element_role",
    "element_html",
    "surrounding_text",
    "observed_alt",
    "accessible_name",
    "accessible_name_source",
    "category",
    "subtype",
    "retrieved",
)


def _with_names(record: dict) -> dict:
    out = {}
    for key, value in record.items():
        out[key] = value
        if key == "observed_alt_verdict":
            out.update({f: "" for f in NAME_FIELDS if f not in record})
    out.update({f: "" for f in NAME_FIELDS if f not in out})
    return out


def _to_harvest(record: dict, sector: str | None) -> tuple[dict | None, list[str]]:
    """The harvest record of a round item, or why it cannot be mapped."""
    problems = []
    status = STATUS_TO_HARVEST.get(record.get("status"))
    if status is None:
        problems.append(f"status {record.get('status')!r} is a round decision with no harvest equivalent")
    harvest = item_specs()["harvest"]  # the harvest profile's vocabularies, from its field specs
    if record.get("implementation") not in harvest["implementation"]:
        problems.append(f"implementation {record.get('implementation')!r} is not collected by harvest")
    if record.get("implementation") == "inline-svg":
        problems.append("an inline-svg item needs image_svg, which the round format does not keep")
    if record.get("element_role") not in harvest["element_role"]:
        problems.append(f"element_role {record.get('element_role')!r} is not a harvest role")
    if not str(record.get("accessible_name") or "").strip():
        problems.append("no accessible_name (migrate to round-v2 and fill the names first)")
    if not sector:
        problems.append("no sector (give --sector)")
    if problems:
        return None, problems
    out = {}
    for field in HARVEST_FIELDS:
        if field == "status":
            out[field] = status
        elif field == "sector":
            out[field] = sector
        elif field in ("image_coord_space", "image_svg"):
            out[field] = None  # coords: unknown from a round item, and the README prefers null to a guess
        else:
            out[field] = record.get(field)
    return out, []


def migrate(project: CorpusProject, to: str, *, sector: str | None = None, dry_run: bool = False) -> Outcome:
    with writer_lock(project.root):
        return _migrate(project, to, sector, dry_run)


def _migrate(project: CorpusProject, to: str, sector: str | None, dry_run: bool) -> Outcome:
    current = project.require_profile()
    if to == current:
        return Outcome(1, lines=[f"the corpus is already {to}; nothing to do"])
    allowed = {"round-v1": ("round-v2", "harvest"), "round-v2": ("harvest",)}.get(current, ())
    if to not in allowed:
        raise JfiError(
            "migration_unsupported",
            f"no migration from {current} to {to} (from round-v1: round-v2 or harvest; from round-v2: harvest)",
            source=display_path(project.corpus_path),
        )
    doc = JsonlDocument.load(project.corpus_path)
    records = [(ln.number, doc.record(ln.number)) for ln in doc.lines if ln.text.strip()]
    if to == "round-v2":
        out = [_with_names(r) for _, r in records]
    else:
        out, refused = [], []
        for number, record in records:
            new, problems = _to_harvest(record, sector)
            if problems:
                refused.append((number, record.get("id"), problems))
            out.append(new)
        if refused:
            raise JfiError(
                "migration_refused",
                f"{len(refused)} item(s) cannot be mapped to harvest (listed above); nothing written",
                source=display_path(project.corpus_path),
                problems=[
                    f"{display_path(project.corpus_path)}:{number}: {item}: not_mappable: {'; '.join(problems)}"
                    for number, item, problems in refused
                ],
            )
    said = Outcome(
        0,
        lines=[
            f"{display_path(project.corpus_path)}: {len(out)} item(s) {current} -> {to}"
            + (" (dry run, nothing written)" if dry_run else "")
        ],
    )
    if dry_run:
        return said
    for (number, _), record in zip(records, out):
        doc.replace(number, record)
    keep = project.corpus_path.with_name(f"{project.corpus_path.stem}.{current}.jsonl")
    with AtomicFiles() as files:
        if to == "harvest":
            files.write(keep, project.corpus_path.read_bytes())
        files.write(project.corpus_path, doc.to_bytes())
        files.write(project.profile_file, f"{PROFILE_HEADER}{to}\n")
    return said
