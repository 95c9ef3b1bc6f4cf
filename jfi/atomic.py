"""Atomic writes, groups of files that land together, crash recovery and the writer lock.

A group's files are written to temp files beside their targets and flushed; then a commit journal naming every
(temp, target) pair is written to the group's folder, the temp files are renamed over their targets and the journal
is removed. A process killed at any point leaves either the old files (no journal yet: the temp files are
leftovers) or a journal: the next jfi command on that folder finishes the renames, so the whole group is new.
Leftover temp files of any earlier run are removed by the next writer that holds the folder's lock.

Two ways a group writes less: a folder that does not exist yet is staged, its files written straight into a temp
folder beside it that the commit renames into place whole (one rename for all of them, not one per file); and a
file written with `keep_same` whose bytes on disk are already the new ones is left as it is (neither written nor
renamed: old and new are the same).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import stat
import time
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from .errors import JfiError

JOURNAL = re.compile(r"^\.jfi-commit-[\w-]+\.json$")
# temp files of this module (.<name>.jfi-<token>.tmp), of DuckDB beside them (.wal), and of earlier releases
LEFTOVER = re.compile(r"^\..+\.(jfi-[\w-]+\.tmp|[a-z0-9_]{8}\.tmp|\d+\.tmp)(\.wal)?$|^\.jfi-commit-[\w-]+\.json\.part$")
LOCK_NAME = ".jfi.lock"
PRIVATE = ".jfi"  # the folder where jfi keeps its stores (jfi.audit.kept); no output goes there

_crash_countdown: list[int] = []


def crash_point(what: str) -> None:
    """Test hook: with JFI_CRASH_AT=N the process dies (as kill -9 would) at the N-th write step. With JFI_CRASH_COPY
    (a folder) and JFI_CRASH_INTO (another), each write step instead copies the folder as it is at that moment to
    INTO/N and goes on: what a kill at step N would leave there (a kill leaves the files as the system holds them,
    which is what a copy reads), for one run to show every step a run of kills would."""
    if not _crash_countdown:
        _crash_countdown.append(int(os.environ.get("JFI_CRASH_AT") or 0))
        _crash_countdown.append(0)  # the write steps copied so far
    if (folder := os.environ.get("JFI_CRASH_COPY")) and (into := os.environ.get("JFI_CRASH_INTO")):
        _crash_countdown[1] += 1
        shutil.copytree(folder, os.path.join(into, str(_crash_countdown[1])), symlinks=True)
    if _crash_countdown[0] > 0:
        _crash_countdown[0] -= 1
        if _crash_countdown[0] == 0:
            os._exit(137)


def _fsync_dir(folder: Path) -> None:
    if os.name == "posix":
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.jfi-(?P<token>[\w-]+)\.tmp$")  # a temp file or staged folder of AtomicFiles


def _journal_path(folder: Path, rel, journal: Path) -> Path:
    """A path a journal names, checked: relative, inside the journal's folder, through no symlink."""
    if not isinstance(rel, str) or not rel or "\0" in rel or os.path.isabs(rel) or "\\" in rel:
        raise _unsafe(journal, f"names {str(rel)[:100]!r}, which is not a path inside its folder")
    parts = Path(rel).parts
    if any(part in ("..", ".", "") for part in parts):
        raise _unsafe(journal, f"names {rel[:100]!r}, which leaves its folder")
    here = Path(folder)
    for part in parts[:-1]:
        here = here / part
        if here.is_symlink() or not here.is_dir():
            raise _unsafe(journal, f"names {rel[:100]!r}, which goes through {part!r}, not a folder of its own")
    return Path(folder) / rel


def _unsafe(journal: Path, why: str) -> JfiError:
    return JfiError(
        "unsafe_journal",
        f"this commit journal {why}; it was not made by jfi, so nothing was renamed "
        "or removed (look at it, then delete it)",
        source=str(journal),
    )


def read_journal(folder: Path, name: str) -> tuple[list[tuple[Path, Path]], list[Path]]:
    """The renames and removals of a commit journal, each checked to be one jfi writes: a temp file of this
    journal's group (`.<name>.jfi-<token>.tmp`) renamed onto `<name>` in the same folder, removals inside the folder,
    no path absolute, with `..` or through a symlink. Anything else raises unsafe_journal."""
    journal = Path(folder) / name
    token = name[len(".jfi-commit-") : -len(".json")]
    try:
        entry = json.loads(journal.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [], []  # its writer finished meanwhile
    except (OSError, ValueError, RecursionError):
        raise _unsafe(journal, "cannot be read as JSON") from None
    if (
        not isinstance(entry, dict)
        or not isinstance(entry.get("renames"), list)
        or not isinstance(entry.get("removals", []), list)
        or set(entry) - {"renames", "removals"}
    ):
        raise _unsafe(journal, "is not a list of renames and removals")
    pairs = []
    for pair in entry["renames"]:
        if not isinstance(pair, list) or len(pair) != 2:
            raise _unsafe(journal, "holds a rename that is not a (temp file, target) pair")
        tmp, target = (_journal_path(folder, rel, journal) for rel in pair)
        m = TEMP_NAME.match(tmp.name)
        if not m or m["token"] != token or tmp.parent != target.parent or target.name[:180] != m["name"]:
            raise _unsafe(
                journal, f"renames {pair[0][:100]!r}, which is not a temp file of its own commit for {pair[1][:100]!r}"
            )
        if tmp.is_dir() and not tmp.is_symlink():  # a staged folder: put in place whole, onto nothing
            if target.exists() or target.is_symlink():
                raise _unsafe(journal, f"would put a folder in place of {pair[1][:100]!r}, which exists")
        elif (tmp.exists() or tmp.is_symlink()) and (target.is_symlink() or (target.exists() and not target.is_file())):
            raise _unsafe(journal, f"would replace {pair[1][:100]!r}, which is not a regular file")
        pairs.append((tmp, target))
    removals = [_journal_path(folder, rel, journal) for rel in entry.get("removals", [])]
    for path in removals:
        if path.is_dir() and not path.is_symlink():
            raise _unsafe(journal, f"would remove the folder {path.name[:100]!r}")
    return pairs, removals


def journals(folder: Path) -> list[str]:
    """The names of the commit journals in a folder."""
    try:
        return sorted(name for name in os.listdir(folder) if JOURNAL.match(name))
    except OSError:
        return []


def roll_forward(folder: Path) -> int:
    """Finish every interrupted commit whose journal is in `folder`; returns how many. Every journal is checked
    before any is carried out (unsafe_journal: nothing touched). Only for a process holding the folder's writer
    lock: a rename already done is skipped."""
    names = journals(folder)
    checked = [(name, *read_journal(folder, name)) for name in names]
    for name, pairs, removals in checked:
        for tmp, target in pairs:
            try:
                os.replace(tmp, target)
            except FileNotFoundError:
                pass  # renamed already
        for path in removals:
            _unlink(path)
        _unlink(Path(folder) / name)
    return len(checked)


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def clean_leftovers(folder: Path) -> None:
    """Roll forward any interrupted commit, then remove temp files left by killed writers. Only while holding the
    folder's writer lock (another writer's temp files would otherwise be in flight)."""
    roll_forward(folder)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not name.startswith("."):  # both patterns name hidden files only: a folder of 5,784 batch files, 20 -> 3 ms
            continue
        path = Path(folder) / name
        if TEMP_NAME.match(name) and path.is_dir() and not path.is_symlink():  # a staged folder never put in place
            shutil.rmtree(path, ignore_errors=True)
        elif LEFTOVER.match(name):
            try:
                os.unlink(path)
            except OSError:
                pass


def _with_subfolders(root: Path) -> list[Path]:
    """A project or audit folder and its immediate visible subfolders: where a group's journal and temp files lie."""
    return [root] + [
        Path(e.path) for e in os.scandir(root) if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")
    ]


RECOVER_WAIT_S = 30.0  # how long a reader waits for a writer in the middle of its commit


def recover(root: Path) -> None:
    """Before a command reads a project or audit folder: finish commits interrupted by a kill (journals in the folder
    or its immediate subfolders). Only a process holding the folder's writer lock rolls a journal forward; while
    another process holds it (a writer in the middle of its commit), the reader waits for its journals to go."""
    root = Path(root)
    if not root.is_dir():
        return
    deadline = time.monotonic() + RECOVER_WAIT_S
    while pending := [f for f in _with_subfolders(root) if journals(f)]:
        for folder in pending:  # a planted journal is refused before anything waits on it
            for name in journals(folder):
                read_journal(folder, name)
        lock = FileLock(str(root / LOCK_NAME), timeout=0, is_singleton=False)
        try:
            lock.acquire()
        except Timeout:
            if time.monotonic() > deadline:
                raise JfiError(
                    "locked",
                    f"a jfi writer is committing in {root} (journal {pending[0]}); try again when it finishes",
                    source=str(root),
                ) from None
            time.sleep(0.05)
            continue
        try:
            for folder in pending:
                roll_forward(folder)
        finally:
            try:
                (root / LOCK_NAME).unlink()
            except FileNotFoundError:
                pass
            lock.release()
        return


def file_key(path: Path, st: os.stat_result | None = None) -> tuple:
    """What says a file is unchanged without reading it: its path, device, inode, size, mtime and ctime in
    nanoseconds (jfi replaces files by renaming, which gives a new inode; an edit in place changes the ctime, which
    no tool can set back)."""
    st = st or os.stat(path)
    return (str(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class AtomicFiles:
    """Files replaced as a group: each is written to a temp file beside it; when the block ends without an error,
    the data is flushed to disk, a commit journal is written, and only then is each temp file renamed over its
    target. An error while writing removes every temp file and touches no target."""

    def __init__(self):
        self.token = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.pending: list[tuple[Path, Path]] = []
        self.staged: dict[Path, Path] = {}  # a folder made whole -> the temp folder its files are written into
        self._staged_written: dict[Path, os.stat_result] = {}  # each file written there, as it was when closed
        self.removals: list[Path] = []
        self._cleaned: set[Path] = set()
        # each file put in place -> its file_key there, when nothing but the rename touched it since it was written
        self.placed: dict[str, tuple] = {}

    def __enter__(self) -> "AtomicFiles":
        return self

    def _folder_for(self, path: Path) -> None:
        """Check and make the folder a file of the group goes into; finish any commit interrupted there."""
        if PRIVATE in Path(os.path.abspath(path)).parts:
            raise JfiError(
                "unsafe_path",
                f"{path.parent} is inside a {PRIVATE}/ folder, where jfi keeps its stores; write outputs elsewhere",
                source=str(path),
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.parent.is_symlink():
            raise JfiError(
                "unsafe_path",
                f"{path.parent.name}/ is a symlink; jfi writes only into real folders inside "
                "the folder (replace it with a folder)",
                source=str(path.parent),
            )
        if path.parent not in self._cleaned:
            self._cleaned.add(path.parent)
            roll_forward(path.parent)

    def _temp_name(self, path: Path) -> Path:
        return path.parent / f".{path.name[:180]}.jfi-{self.token}.tmp"

    def stage(self, folder: Path) -> bool:
        """Make `folder` whole: when it does not exist, the group's files in it are written into a temp folder beside
        it, which the commit renames into place (one rename for every file). False when it exists: its files are
        then replaced one by one."""
        folder = Path(folder)
        if folder in self.staged:
            return True
        if folder.exists() or folder.is_symlink():
            return False
        self._folder_for(folder)
        tmp = self._temp_name(folder)
        tmp.mkdir()
        self.staged[folder] = tmp
        self.pending.append((tmp, folder))
        return True

    def temp_path(self, path: Path) -> Path:
        """The temp file that will replace `path` (for writers that need a path, such as Parquet or DuckDB); in a
        staged folder, the file under its own name there."""
        path = Path(path)
        if path.parent in self.staged:
            return self.staged[path.parent] / path.name
        self._folder_for(path)
        if path.is_dir() and not path.is_symlink():
            raise JfiError("unsafe_path", "is a folder; jfi writes only regular files here", source=str(path))
        tmp = self._temp_name(path)
        self.pending.append((tmp, path))
        return tmp

    @contextmanager
    def open(self, path: Path):
        """A binary handle on the temp file that will replace `path`."""
        tmp = self.temp_path(path)
        with open(tmp, "xb") as fh:
            yield fh
            if path.parent in self.staged:
                fh.flush()
                self._staged_written[path] = os.fstat(fh.fileno())
        crash_point("written")

    def remove(self, path: Path) -> None:
        """Remove `path` as part of the group (after every rename)."""
        self.removals.append(Path(path))

    def write(self, path: Path, data: bytes | str, *, keep_same: bool = False) -> None:
        """`keep_same`: a regular file already holding exactly these bytes is left as it is (not written, not renamed;
        its key is recorded in `placed` as if it had been)."""
        data = data.encode("utf-8") if isinstance(data, str) else data
        if keep_same and self._same(Path(path), data):
            return
        with self.open(path) as fh:
            fh.write(data)

    def _same(self, path: Path, data: bytes) -> bool:
        if path.parent in self.staged:
            return False
        try:
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode) or st.st_size != len(data):
                return False
            with open(path, "rb") as fh:
                same = fh.read(len(data) + 1) == data
        except OSError:
            return False
        key = file_key(path, st)
        if same and file_key(path) == key:  # unchanged while it was read
            self.placed[str(path)] = key
            return True
        return False

    def __exit__(self, kind, value, tb) -> None:
        try:
            if kind is None and (self.pending or self.removals):
                self._commit()
        finally:
            for tmp, path in self.pending:
                if path in self.staged:
                    shutil.rmtree(tmp, ignore_errors=True)
                    continue
                for leftover in (tmp, Path(str(tmp) + ".wal")):
                    if leftover.exists():
                        leftover.unlink()

    def _commit(self) -> None:
        if len(self.pending) == 1 and not self.removals and not self.staged:
            fd = os.open(self.pending[0][0], os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        else:
            os.sync()
        written = {}
        for tmp, path in self.pending:
            if path in self.staged:  # a folder (its files' stats were taken as they were written)
                continue
            os.chmod(tmp, path.stat().st_mode & 0o7777 if path.exists() else 0o644)
            written[tmp] = os.stat(tmp)
        if len(self.pending) == 1 and not self.removals and not self.staged:  # one rename is atomic by itself
            os.replace(*self.pending[0])
            crash_point("renamed")
            self._place(*self.pending[0], written)
            self.pending = []
            return
        folders: dict[Path, Path] = {}  # each folder's real path, resolved once (a temp file is beside its target)

        def real(path: Path) -> Path:
            if path.parent not in folders:
                folders[path.parent] = path.parent.resolve()
            return folders[path.parent] / path.name

        home = Path(
            os.path.commonpath(
                [str(real(p).parent) for _, p in self.pending] + [str(real(p).parent) for p in self.removals]
            )
        )
        rel = [(os.path.relpath(real(t), home), os.path.relpath(real(p), home)) for t, p in self.pending]
        gone = [os.path.relpath(real(p), home) for p in self.removals]
        journal = home / f".jfi-commit-{self.token}.json"
        part = Path(str(journal) + ".part")
        with open(part, "w", encoding="utf-8") as fh:
            json.dump({"renames": rel, "removals": gone}, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(part, journal)
        _fsync_dir(home)
        crash_point("journal")
        for tmp, path in self.pending:
            os.replace(tmp, path)
            crash_point("renamed")
            self._place(tmp, path, written)
        for path in self.removals:
            _unlink(path)
        journal.unlink()
        self.pending, self.removals = [], []

    def _place(self, tmp: Path, path: Path, written: dict) -> None:
        """Record the key of a file just renamed into place, when it is the inode written, unwritten since (same
        size and mtime): a later command knows its bytes by that key without reading them. A staged folder: each
        file written into it."""
        if path in self.staged:
            for name, before in [(p, st) for p, st in self._staged_written.items() if p.parent == path]:
                self._keep_key(name, os.stat(name), before)
            return
        self._keep_key(path, os.stat(path), written[tmp])

    def _keep_key(self, path: Path, st: os.stat_result, before: os.stat_result) -> None:
        if (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) == (
            before.st_dev,
            before.st_ino,
            before.st_size,
            before.st_mtime_ns,
        ):
            self.placed[str(path)] = file_key(path, st)


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write a file by temp file + fsync + rename: readers see the old bytes or the new, never half."""
    with AtomicFiles() as files:
        files.write(path, data)


@contextmanager
def writer_lock(folder: Path):
    """Hold the folder's writer lock (`.jfi.lock`, removed when the writer ends); a second writer is refused,
    never queued. Interrupted commits are finished and leftovers of killed writers removed once it is held."""
    folder = Path(folder)
    lock_path = folder / LOCK_NAME
    if not folder.is_dir():
        raise JfiError("no_project", f"{folder} is not a folder", source=str(folder))
    existed = lock_path.exists()
    lock = FileLock(str(lock_path), timeout=0, is_singleton=False)
    try:
        lock.acquire()
    except Timeout:
        raise JfiError(
            "locked", f"another jfi writer holds {lock_path}; try again when it finishes", source=str(lock_path)
        ) from None
    try:
        if os.name == "posix" and not _same_file(lock_path, lock):
            raise JfiError("locked", f"another jfi writer took {lock_path} meanwhile; try again", source=str(lock_path))
        for each in _with_subfolders(folder):
            clean_leftovers(each)
        yield
    finally:
        if os.name == "posix" or not existed:
            try:  # removed while still held, so a process that opened the old file sees it is gone
                lock_path.unlink()
            except FileNotFoundError:
                pass
        lock.release()


def _same_file(path: Path, lock: FileLock) -> bool:
    """Whether the lock held is still the file at `path` (a releasing writer may have removed it meanwhile)."""
    fd = getattr(lock, "_context", None)
    fd = getattr(fd, "lock_file_fd", None) if fd is not None else None
    if fd is None:
        return True
    try:
        return os.fstat(fd).st_ino == os.stat(path).st_ino
    except FileNotFoundError:
        return False
