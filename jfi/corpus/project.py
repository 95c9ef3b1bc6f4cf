"""A corpus project on disk: where its files are, and loading them into a store."""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .. import rulebook
from ..atomic import AtomicFiles, recover, writer_lock
from ..errors import JfiError
from ..jsonl import line_columns, sha256_file, strict_loads
from ..output import Outcome
from ..paths import bytes_of, own_folder, regular_file
from ..rulebook import DEFAULT_PROFILE, PROFILES
from ..store import Store

DEFAULT_GOAL = 250
MIN_GOAL = 25
MAX_GOAL = 1_000_000  # the most items a goal may name (a bigger number is a typo, and overflows the store's integers)
MAX_ROUND = 999  # round numbers: 1 to 999 (files are round-NN-…)
PROFILE_HEADER = "# the corpus profile (round-v1, round-v2 or harvest): the rules jfi reads this corpus by\n"
BATCH_FILE = re.compile(r"^batch-(\d+)\.jsonl$")
ROUND_FILE = re.compile(r"^round-(\d+)-(review|second-pass-input|second-pass)\.jsonl$|^round-(\d+)-(report)\.md$")
KIND = {"review": "review", "second-pass-input": "second_pass_input", "second-pass": "second_pass", "report": "report"}


def display_path(path: Path) -> str:
    """A path as a person would type it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


@functools.lru_cache(maxsize=None)
def item_specs() -> dict[str, dict[str, list | None]]:
    """Each corpus profile's item fields and their allowed values, as its rule files' field specs say (the one place
    they are written): {profile: {field: allowed or None}}; kept in the user's cache beside the rulebook's parse."""
    return rulebook.cached(
        "item-specs-1",
        rulebook.load()[1],
        _item_specs,
        valid=lambda value: isinstance(value, dict) and set(value) == set(PROFILES),
    )


def _item_specs() -> dict[str, dict[str, list | None]]:
    import duckdb

    loaded, specs = rulebook.load()[0], {}
    con = duckdb.connect()
    try:
        for profile in PROFILES:
            for f in rulebook.in_use(loaded, ("corpus",), profile, ("field_specs",)):
                con.execute(f.sql)
            specs[profile] = dict(
                con.execute("SELECT field, allowed FROM field_specs WHERE kind = 'item' AND field <> '*'").fetchall()
            )  # '*': any other field is taken
            con.execute("DELETE FROM field_specs")
    finally:
        con.close()
    return specs


def profile_of_keys(keys) -> str:
    """The profile whose records carry these keys (detection reads the first record): a field only harvest items have
    (sector, review_verdict, ...), else a field round-v2 adds to round-v1 (the accessible names), else round-v1."""
    keys, specs = set(keys), item_specs()
    if keys & (specs["harvest"].keys() - specs["round-v2"].keys()):
        return "harvest"
    return "round-v2" if keys & (specs["round-v2"].keys() - specs["round-v1"].keys()) else DEFAULT_PROFILE


TARGET_HEADER = """# Accepted-item goal N for this corpus. `jfi corpus validate` scales its count targets from it
# (k = N/250): per category max(4, round(30k)), per sub-type max(3, round(20k)), distinct domains
# per sub-type max(3, round(8k)). The first line that is not blank or a comment is the goal.
"""


@dataclass
class CorpusProject:
    root: Path
    corpus_path: Path
    rounds_dir: Path
    profile_override: str | None = None

    @classmethod
    def at(
        cls, root: Path, corpus: Path | None = None, rounds: Path | None = None, profile: str | None = None
    ) -> "CorpusProject":
        root = Path(root)
        recover(root)  # a commit interrupted by a kill is finished before anything reads the project
        if profile is not None and profile not in PROFILES:
            raise JfiError(
                "invalid_profile", f"unknown profile {profile!r}; profiles: {', '.join(PROFILES)}", exit_code=3
            )
        return cls(
            root,
            Path(corpus) if corpus else root / "corpus" / "functional-images.jsonl",
            Path(rounds) if rounds else root / "rounds",
            profile,
        )

    @property
    def profile_file(self) -> Path:
        return self.root / "corpus" / "profile.txt"

    def first_record_keys(self) -> list[str] | None:
        """The keys of the corpus file's first record (None when there is none, or it is not a JSON object)."""
        if not self.corpus_path.is_file():
            return None
        with self.corpus_path.open("rb") as f:
            for raw in f:
                if raw.strip():
                    try:
                        record = strict_loads(raw.decode("utf-8", errors="replace"))
                    except (ValueError, RecursionError):
                        return None
                    return list(record) if isinstance(record, dict) else None
        return None

    @property
    def profile(self) -> str:
        """--profile, else corpus/profile.txt, else the profile the first record's keys belong to, else round-v1."""
        if self.profile_override:
            return self.profile_override
        if self.profile_file.is_file():
            lines = [ln.strip() for ln in self.profile_file.read_text(encoding="utf-8-sig").splitlines()]
            name = next((ln for ln in lines if ln and not ln.startswith("#")), "")
            if name not in PROFILES:
                raise JfiError(
                    "invalid_profile",
                    f"{name!r} is not a profile; profiles: {', '.join(PROFILES)}",
                    source=display_path(self.profile_file),
                )
            return name
        keys = self.first_record_keys()
        return profile_of_keys(keys) if keys else DEFAULT_PROFILE

    def profile_mismatch(self) -> dict | None:
        """One violation when the corpus is written in another profile's shape than the project's (a round-v1 record
        in a round-v2 project is not one: it lacks the new fields, which validation lists)."""
        keys = self.first_record_keys()
        if not keys:
            return None
        profile, shape = self.profile, profile_of_keys(keys)
        if shape == profile or (profile == "round-v2" and shape == "round-v1"):
            return None
        return {
            "source": display_path(self.corpus_path),
            "line": self.first_record_line(),
            "record_id": None,
            "field": None,
            "code": "profile_mismatch",
            "message": f"line {self.first_record_line()} has the keys of {shape!r}; this project is {profile!r}",
        }

    def first_record_line(self) -> int:
        with self.corpus_path.open("rb") as f:
            return next((n for n, raw in enumerate(f, 1) if raw.strip()), 1)

    def require_profile(self, *profiles: str) -> str:
        """The project's profile, refused (profile_mismatch, exit 2) when the data is another profile's, and
        (wrong_profile) when the command belongs to other profiles."""
        problem = self.profile_mismatch()
        if problem:
            raise JfiError("profile_mismatch", problem["message"], source=problem["source"], line=problem["line"])
        if profiles and self.profile not in profiles:
            raise JfiError(
                "wrong_profile",
                f"this command works on {' and '.join(profiles)} projects; this project is {self.profile!r}",
                source=display_path(self.root),
            )
        return self.profile

    def require(self) -> "CorpusProject":
        """Refuse a folder that is not a corpus project: it must exist and hold the corpus file, a rounds folder or
        a target file (a mistyped path is never taken for an empty corpus; `jfi corpus init` makes one)."""
        if not self.root.is_dir():
            raise JfiError(
                "no_project",
                f"{self.root} is not a folder; `jfi corpus init` creates a corpus project",
                source=str(self.root),
            )
        if not (self.corpus_path.is_file() or self.rounds_dir.is_dir() or self.target_file.is_file()):
            raise JfiError(
                "no_project",
                f"no corpus project in {self.root} (no {display_path(self.corpus_path)}); "
                "`jfi corpus init` creates one",
                source=str(self.root),
            )
        return self

    def init(self, goal: int | None) -> Outcome:
        """Create the corpus project's layout: an empty corpus file, rounds/ (review/ for harvest), the goal and the
        profile when given."""
        if self.corpus_path.is_file():
            return Outcome(1, lines=[f"{display_path(self.corpus_path)} already exists; nothing to do"])
        goal = self.resolve_goal(goal) if goal is not None else None
        self.root.mkdir(parents=True, exist_ok=True)
        (self.review_dir if self.profile_override == "harvest" else self.rounds_dir).mkdir(parents=True, exist_ok=True)
        with writer_lock(self.root), AtomicFiles() as files:
            files.write(self.corpus_path, b"")
            if goal is not None:
                files.write(self.target_file, f"{TARGET_HEADER}{goal}\n")
            if self.profile_override:
                files.write(self.profile_file, f"{PROFILE_HEADER}{self.profile_override}\n")
        made = (
            f"{display_path(self.corpus_path)}: a new corpus project"
            + (f" with goal {goal}" if goal else "")
            + (f", profile {self.profile_override}" if self.profile_override else "")
        )
        report = {"corpus": str(self.corpus_path), "goal": goal, "profile": self.profile_override}
        return Outcome(0, report, lines=[made], printed=False)

    def set_profile(self) -> Outcome:
        """Write the profile asked for into corpus/profile.txt; the corpus must already be in its shape."""
        name = self.profile_override
        current = CorpusProject.at(self.root, self.corpus_path, self.rounds_dir)
        if current.profile_file.is_file() and current.profile == name:
            return Outcome(1, lines=[f"the profile is already {name}; nothing to do"])
        self.require_profile()  # data in another profile's shape is refused: migrate it instead
        with writer_lock(self.root), AtomicFiles() as files:
            files.write(self.profile_file, f"{PROFILE_HEADER}{name}\n")
        return Outcome(
            0, {"profile": name}, lines=[f"{display_path(self.profile_file)}: profile {name}"], printed=False
        )

    @property
    def target_file(self) -> Path:
        return self.root / "corpus" / "target.txt"

    @property
    def images_dir(self) -> Path:
        return self.root / "corpus" / "images"

    def round_path(self, round_no: int, suffix: str) -> Path:
        if not 1 <= round_no <= MAX_ROUND:
            raise JfiError(
                "invalid_round",
                f"--round takes 1 to {MAX_ROUND}, got {str(round_no)[:40]}",
                field="--round",
                exit_code=3,
            )
        return self.rounds_dir / f"round-{round_no:02d}-{suffix}"

    @property
    def review_dir(self) -> Path:
        """harvest: the review batches, review/batch-NN.jsonl."""
        return self.root / "review"

    def batch_path(self, number: int) -> Path:
        return self.review_dir / f"batch-{number:02d}.jsonl"

    def round_files(self) -> list[tuple[str, int, Path]]:
        """(kind, round, path) for every round file (harvest: every review batch), in numeric order."""
        found = []
        if self.profile == "harvest":
            if own_folder(self.review_dir):
                for path in self.review_dir.iterdir():
                    m = BATCH_FILE.match(path.name)
                    if m and regular_file(path):
                        found.append(("batch", int(m.group(1)), path))
            return sorted(found, key=lambda f: f[1])
        if own_folder(self.rounds_dir):
            for path in self.rounds_dir.iterdir():
                m = ROUND_FILE.match(path.name)
                if m and regular_file(path):
                    number = int(m.group(1) or m.group(3))
                    found.append((KIND[m.group(2) or m.group(4)], number, path))
        return sorted(found, key=lambda f: (f[1], f[0]))

    def resolve_goal(self, target: int | None) -> int:
        """--target N, else the first meaningful line of corpus/target.txt, else 250."""
        if target is None and self.target_file.exists():
            lines = [ln.strip() for ln in self.target_file.read_text(encoding="utf-8-sig").splitlines()]
            meaningful = [(i, ln) for i, ln in enumerate(lines, 1) if ln and not ln.startswith("#")]
            if not meaningful:
                raise JfiError(
                    "invalid_target",
                    "target file holds no goal (only blank lines and comments)",
                    source=display_path(self.target_file),
                    exit_code=3,
                )
            number, text = meaningful[0]
            if not re.fullmatch(r"[0-9]{1,9}", text):
                raise JfiError(
                    "invalid_target",
                    f"goal must be a whole number of at most 9 digits, got {text[:40]!r}",
                    source=display_path(self.target_file),
                    line=number,
                    exit_code=3,
                )
            target = int(text)
        goal = DEFAULT_GOAL if target is None else target
        if not MIN_GOAL <= goal <= MAX_GOAL:
            raise JfiError(
                "invalid_target",
                f"goal {str(goal)[:40]} is outside {MIN_GOAL} to {MAX_GOAL:,} (the smallest "
                "corpus jfi scales to, and the largest goal it takes)",
                field="target",
            )
        return goal

    def load(self, store: Store, *, goal: int = DEFAULT_GOAL, hash_images: bool = False) -> Store:
        """Load the corpus file, every round file and the state of the image copies into a store."""
        store.set_goal(goal)
        files = [("item", None, self.corpus_path)] + self.round_files()
        store.fit_threads(bytes_of(path for _, _, path in files))
        for kind, number, path in files:
            present = regular_file(path)  # a symlink or folder in a file's place is refused, never read as empty
            store.append(
                "raw_files", {"kind": [kind], "source": [display_path(path)], "round": [number], "present": [present]}
            )
            if present:
                numbers, texts = line_columns(path)
                store.add_lines(kind, display_path(path), numbers, texts, round_no=number)
        store.build()
        paths = [
            r[0]
            for r in store.con.execute(
                "SELECT DISTINCT image_file FROM corpus_items WHERE image_file IS NOT NULL"
            ).fetchall()
        ]
        present, digests = [], []
        for rel in paths:
            full = self.root / rel
            ok = full.is_file()
            present.append(ok)
            digests.append(sha256_file(full) if ok and hash_images else None)
        store.append("image_copies", {"path": paths, "present": present, "sha256": digests})
        return store

    def store(
        self,
        *,
        goal: int = DEFAULT_GOAL,
        hash_images: bool = False,
        path: str = ":memory:",
        needs: tuple[str, ...] | None = None,
        portable: bool = False,
    ) -> Store:
        """The project loaded into a store of its profile's rules; data in another profile's shape is refused.
        `needs`: only the rule files making these objects run (and those making what loading reads)."""
        self.require_profile()
        if needs is not None:
            needs = (*needs, "corpus_items")
        return self.load(
            Store(path, sections=("corpus",), profile=self.profile, needs=needs, portable=portable),
            goal=goal,
            hash_images=hash_images,
        )
