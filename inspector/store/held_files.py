"""The store files this process holds SQLite connections to.

POSIX advisory locks belong to the process, and closing *any* descriptor of a file drops all
of them (https://sqlite.org/howtocorrupt.html, 2.2). open_store read a store file's header
with a plain open/close: when the process already had the store open (the app's follower
opening its own Store beside the app's), that dropped the app's locks, so another process
writing the store took itself for the only one — it deleted the WAL and its index on close,
and the app never saw its commits again ("Changed elsewhere" never came; later reads failed
with "disk I/O error"). So the header is read only for a file this process does not hold.

Two more things are kept per process here, for the same reason that a lock is the process's:
the open Stores, asked whether their file was copied over when an SQLite error may mean that
(:func:`said_copied_over`), and the files a connection of this process is committing or
checkpointing into right now (:func:`writing`), which another Store of the process must not take
for a copy put back (store/file_writes.py).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_HELD: dict[tuple[int, int], int] = {}  # (device, inode) -> how many open Stores hold it


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def holds(path: Path) -> bool:
    """This process has a Store open on ``path``'s file."""
    return _file_id(path) in _HELD


def hold(path: Path) -> tuple[int, int] | None:
    """Count one more open Store on ``path``'s file; what to give release() when it closes."""
    ident = _file_id(path)
    if ident is not None:
        _HELD[ident] = _HELD.get(ident, 0) + 1
    return ident


def release(ident: tuple[int, int] | None) -> None:
    if ident is not None and ident in _HELD:
        _HELD[ident] -= 1
        if _HELD[ident] <= 0:
            del _HELD[ident]


def held() -> list[tuple[int, int]]:
    """(device, inode) of every store file this process holds open."""
    return list(_HELD)


_OPEN: weakref.WeakSet[Any] = weakref.WeakSet()  # open Stores, asked by an error that may mean their file was copied over


def watch(store: Any) -> None:
    """Ask ``store.copied_over_said()`` when an SQLite error may mean its file was copied over."""
    _OPEN.add(store)


def unwatch(store: Any) -> None:
    _OPEN.discard(store)


def said_copied_over() -> str | None:
    """The refusal's sentence of an open store whose file was copied over since it last looked, or None."""
    for store in list(_OPEN):
        said = store.copied_over_said()
        if said is not None:
            return str(said)
    return None


_WRITING: dict[tuple[int, int], int] = {}  # files a connection of this process may be checkpointing into now


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """Around a commit or a checkpoint of ``path``'s store in this process: SQLite may be copying
    the log into the file on that connection's thread (an automatic checkpoint runs inside the
    commit) before it records how far — a file written, the mark not yet moved. Another Store of
    this process must not take that for a copy put back (store/file_writes.py): the checkpoint
    lock it would see is its own process's, which F_GETLK does not report."""
    ident = _file_id(path)
    if ident is not None:
        _WRITING[ident] = _WRITING.get(ident, 0) + 1
    try:
        yield
    finally:
        if ident is not None:
            _WRITING[ident] -= 1
            if _WRITING[ident] <= 0:
                del _WRITING[ident]


def being_written(path: Path) -> bool:
    """A connection of this process is committing or checkpointing ``path``'s store now."""
    return _file_id(path) in _WRITING
