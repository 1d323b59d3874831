"""Other stores the inspector made of transcripts: whole copies a deletion in one store leaves.

Opening a transcript from the start screen imports it into a store of its own in the user's
data folder (``stores/``, services/discovery.py); a Gemini CLI chat file, rewritten whole by
its tool, gets a new store for each state of it, and the older ones stay. ``inspector FILE``
of a file in a read-only folder keeps its store in the cache folder (``opened/``). A deletion
carried out in one of them — or in a team's store the same transcript was imported into —
left every other one holding the deleted text, in folders the person never chose and is not
told of. So a deletion's listing, and its outcome, name each such store whose bytes (the
file and its ``-wal``) spell a value of the targets, as written or JSON-escaped. Nothing is
changed in them: each is a store with its own ledger and reviews; a deletion there (or
removing its file) is the person's act.
"""

from __future__ import annotations

import os
from pathlib import Path

from inspector.domain.plurals import counted as _n
from inspector.services import discovery
from inspector.services.deletion_outside import MAX_BYTES, _holds, needles_of

MAX_STORES = 200  # store files looked at, newest first: a folder of thousands is not read whole
MAX_TOTAL = 2 << 30  # bytes read in all: the stores past it are named as not looked in


def _folders() -> list[Path]:
    return [discovery.data_dir() / "stores", discovery.cache_dir() / "opened"]


def _same(path: Path, other: Path) -> bool:
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def _stores(own: Path | None) -> list[Path]:
    """The inspector's own store files (not ``own``), newest first."""
    found: list[tuple[float, Path]] = []
    for folder in _folders():
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.name.endswith(".db") and entry.is_file(follow_symlinks=False):
                    found.append((entry.stat(follow_symlinks=False).st_mtime, Path(entry.path)))
            except OSError:
                continue
    found.sort(key=lambda item: item[0], reverse=True)
    return [p for _, p in found if own is None or not _same(p, own)][:MAX_STORES]


def stores_holding(own: object, values: list[str]) -> tuple[list[Path], list[Path]]:
    """(other stores of the inspector's folders whose file or WAL spells a value, those too
    large to read). ``own``: the store the deletion is in (a path; a URL for PostgreSQL)."""
    if not values:
        return [], []
    needles = needles_of(values)
    mine = Path(own) if isinstance(own, (str, os.PathLike)) else None
    holding: list[Path] = []
    unread: list[Path] = []
    budget = MAX_TOTAL
    for store in _stores(mine):
        parts = [store, Path(f"{store}-wal")]
        try:
            sizes = [p.stat().st_size for p in parts if p.is_file()]
            budget -= sum(sizes)
            if budget < 0 or any(size > MAX_BYTES for size in sizes):
                unread.append(store)
            elif any(p.is_file() and _holds(str(p), needles) for p in parts):
                holding.append(store)
        except OSError:
            continue
    return holding, unread


def _shown(paths: list[Path]) -> str:
    named = ", ".join(str(p) for p in paths[:3])
    return named + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def store_warnings(own: object, values: list[str]) -> list[str]:
    """The deletion's sentences about those stores."""
    holding, unread = stores_holding(own, values)
    out = []
    if holding:
        out.append(f"{_n(len(holding), 'other store')} the inspector made of transcripts (opened from the transcript "
                   f"list, or a transcript in a read-only folder) hold a value of the targets: {_shown(holding)} — "
                   "a deletion here does not reach them: carry out a deletion request in each, or remove its file")
    if unread:
        out.append(f"other stores the inspector made, too large to look in: {_shown(unread)} — check them yourself")
    return out
