"""Paths inside a folder that came from someone else: what a file in it names is checked before it is read or
written. Nothing here follows a symlink or leaves the folder."""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

from .errors import JfiError, clip

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def regular_file(path: Path) -> bool:
    """Whether an input file is there: False when absent, True for a regular file; a symlink, folder or other
    special file in its place is refused (unsafe_path), never followed nor read as empty."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    except NotADirectoryError:
        return False
    if stat.S_ISREG(mode):
        return True
    what = "a symlink" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode) else "not a regular file"
    raise JfiError(
        "unsafe_path",
        f"is {what}; jfi reads and writes only regular files inside the folder (replace it with the file itself)",
        source=str(path),
    )


def bytes_of(paths) -> int:
    """The bytes the regular files among these paths hold (an absent path, a symlink or a folder counts nothing)."""
    total = 0
    for path in paths:
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            total += st.st_size
    return total


def own_folder(path: Path) -> bool:
    """Whether a folder jfi reads or writes is there: False when absent, True for a real folder; a symlink or a file
    in its place is refused (unsafe_path)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(mode):
        return True
    what = "a symlink" if stat.S_ISLNK(mode) else "not a folder"
    raise JfiError(
        "unsafe_path", f"is {what}; jfi reads and writes only real folders inside the folder", source=str(path)
    )


def out_folder(path: Path) -> Path:
    """A folder a command was told to write into (`--out DIR`), checked before any work: absent (it is made) or a
    real folder; a file, a symlink or anything else in its place is refused (not_a_folder)."""
    try:
        own_folder(Path(path))
    except JfiError:
        raise JfiError(
            "not_a_folder", "is not a folder; name a folder to write into (it is made when absent)", source=str(path)
        ) from None
    return Path(path)


def inside(
    root: Path,
    rel,
    *,
    under: str | None = None,
    source: str | None = None,
    field: str | None = None,
    line: int | None = None,
) -> Path:
    """`root / rel` for a relative path a file in the folder names, checked: no absolute path, no `..`, no
    backslash or NUL, inside `under` when given, and through no symlink. Raises unsafe_path naming where it was
    found."""

    def refuse(why: str) -> JfiError:
        return JfiError("unsafe_path", f"{clip(rel, 120)!r} {why}", source=source, line=line, field=field)

    if not isinstance(rel, str) or not rel or "\0" in rel or "\\" in rel:
        raise refuse("is not a relative path inside the folder")
    parts = PurePosixPath(rel).parts
    if PurePosixPath(rel).is_absolute() or any(p in ("..", ".") for p in parts):
        raise refuse("leaves the folder (absolute or with ..)")
    if under is not None and (len(parts) < 2 or parts[0] != under):
        raise refuse(f"is not inside {under}/")
    here = Path(root)
    for part in parts[:-1]:
        here = here / part
        if here.is_symlink():
            raise refuse(f"goes through the symlink {part!r}")
    return Path(root).joinpath(*parts)


def png_bytes(path: Path, *, source: str | None = None, line: int | None = None) -> bytes | None:
    """The bytes of a screenshot that must be a PNG image and a regular file (None when absent)."""
    if not regular_file(path):
        return None
    data = path.read_bytes()
    if not data.startswith(PNG_SIGNATURE):
        raise JfiError(
            "unsafe_path",
            f"{path.name} is not a PNG image (a screenshot must be one)",
            source=source or str(path),
            line=line,
            field="screenshot",
        )
    return data


def output_file(path: Path, *, reads=(), kind: str, same_kind=None) -> Path:
    """A file a command was told to write (`--write-baseline F`, `--screenshot F`), checked before anything is read or
    written: never a file any of `reads` (the folders whose files the command reads as input) takes as input, and
    never an existing file that is not of the output's own kind (`same_kind(path)` says; a refusal otherwise): an
    output replaces only an earlier output of itself."""
    path = Path(path)
    for folder in reads:
        if folder.reads(path):
            raise JfiError(
                "output_is_input",
                f"is {'a folder' if path.is_dir() else 'a file'} {folder.root} reads as input; write the {kind} "
                "elsewhere (outputs never replace inputs)",
                source=str(path),
            )
    if os.path.lexists(path):
        regular_file(path)  # a symlink or a folder in its place is refused
        if same_kind is None or not same_kind(path):
            raise JfiError(
                "would_overwrite", f"exists and is not a {kind}; name a new file or an earlier {kind}", source=str(path)
            )
    return path
