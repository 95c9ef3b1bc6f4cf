"""A corpus project on disk: where its files are, and loading them into a store."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import JfiError
from ..atomic import AtomicFiles, recover, writer_lock
from ..jsonl import line_columns, sha256_file
from ..store import Store

DEFAULT_GOAL = 250
MIN_GOAL = 25
ROUND_FILE = re.compile(r"^round-(\d+)-(review|second-pass-input|second-pass)\.jsonl$|^round-(\d+)-(report)\.md$")
KIND = {"review": "review", "second-pass-input": "second_pass_input", "second-pass": "second_pass", "report": "report"}


def display_path(path: Path) -> str:
    """A path as a person would type it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


@dataclass
class CorpusProject:
    root: Path
    corpus_path: Path
    rounds_dir: Path

    @classmethod
    def at(cls, root: Path, corpus: Path | None = None, rounds: Path | None = None) -> "CorpusProject":
        root = Path(root)
        recover(root)  # a commit interrupted by a kill is finished before anything reads the project
        return cls(root, Path(corpus) if corpus else root / "corpus" / "functional-images.jsonl",
                   Path(rounds) if rounds else root / "rounds")

    def require(self) -> "CorpusProject":
        """Refuse a folder that is not a corpus project: it must exist and hold the corpus file, a rounds folder or
        a target file (a mistyped path is never taken for an empty corpus; `jfi corpus init` makes one)."""
        if not self.root.is_dir():
            raise JfiError("no_project", f"{self.root} is not a folder; `jfi corpus init` creates a corpus project",
                           source=str(self.root))
        if not (self.corpus_path.is_file() or self.rounds_dir.is_dir() or self.target_file.is_file()):
            raise JfiError("no_project", f"no corpus project in {self.root} (no {display_path(self.corpus_path)}); "
                           "`jfi corpus init` creates one", source=str(self.root))
        return self

    def init(self, goal: int | None) -> int:
        """Create the corpus project's layout: an empty corpus file, rounds/, and the goal when given."""
        if self.corpus_path.is_file():
            print(f"{display_path(self.corpus_path)} already exists; nothing to do")
            return 1
        goal = self.resolve_goal(goal) if goal is not None else None
        self.root.mkdir(parents=True, exist_ok=True)
        self.rounds_dir.mkdir(parents=True, exist_ok=True)
        with writer_lock(self.root), AtomicFiles() as files:
            files.write(self.corpus_path, b"")
            if goal is not None:
                from .target import HEADER
                files.write(self.target_file, f"{HEADER}{goal}\n")
        print(f"{display_path(self.corpus_path)}: a new corpus project" + (f" with goal {goal}" if goal else ""))
        return 0

    @property
    def target_file(self) -> Path:
        return self.root / "corpus" / "target.txt"

    @property
    def images_dir(self) -> Path:
        return self.root / "corpus" / "images"

    def round_path(self, round_no: int, suffix: str) -> Path:
        return self.rounds_dir / f"round-{round_no:02d}-{suffix}"

    def round_files(self) -> list[tuple[str, int, Path]]:
        """(kind, round, path) for every round file, in numeric round order."""
        found = []
        if self.rounds_dir.is_dir():
            for path in self.rounds_dir.iterdir():
                m = ROUND_FILE.match(path.name)
                if m and path.is_file():
                    number = int(m.group(1) or m.group(3))
                    found.append((KIND[m.group(2) or m.group(4)], number, path))
        return sorted(found, key=lambda f: (f[1], f[0]))

    def resolve_goal(self, target: int | None) -> int:
        """--target N, else the first meaningful line of corpus/target.txt, else 250."""
        if target is None and self.target_file.exists():
            lines = [ln.strip() for ln in self.target_file.read_text(encoding="utf-8-sig").splitlines()]
            meaningful = [(i, ln) for i, ln in enumerate(lines, 1) if ln and not ln.startswith("#")]
            if not meaningful:
                raise JfiError("invalid_target", "target file holds no goal (only blank lines and comments)",
                               source=display_path(self.target_file), exit_code=3)
            number, text = meaningful[0]
            if not text.isdigit():
                raise JfiError("invalid_target", f"goal must be digits only, got {text!r}",
                               source=display_path(self.target_file), line=number, exit_code=3)
            target = int(text)
        goal = DEFAULT_GOAL if target is None else target
        if goal < MIN_GOAL:
            raise JfiError("invalid_target", f"goal {goal} is below the smallest corpus jfi scales to ({MIN_GOAL})")
        return goal

    def load(self, store: Store, *, goal: int = DEFAULT_GOAL, hash_images: bool = False) -> Store:
        """Load the corpus file, every round file and the state of the image copies into a store."""
        store.set_goal(goal)
        files = [("item", None, self.corpus_path)] + self.round_files()
        for kind, number, path in files:
            present = path.is_file()
            store.append("raw_files", {"kind": [kind], "source": [display_path(path)],
                                       "round": [number], "present": [present]})
            if present:
                numbers, texts = line_columns(path)
                store.add_lines(kind, display_path(path), numbers, texts, round_no=number)
        store.build()
        paths = [r[0] for r in store.con.execute(
            "SELECT DISTINCT image_file FROM corpus_items WHERE image_file IS NOT NULL").fetchall()]
        present, digests = [], []
        for rel in paths:
            full = self.root / rel
            ok = full.is_file()
            present.append(ok)
            digests.append(sha256_file(full) if ok and hash_images else None)
        store.append("image_copies", {"path": paths, "present": present, "sha256": digests})
        return store

    def store(self, *, goal: int = DEFAULT_GOAL, hash_images: bool = False, path: str = ":memory:") -> Store:
        return self.load(Store(path, sections=("corpus",)), goal=goal, hash_images=hash_images)
