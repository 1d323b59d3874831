"""Where a command writes a file of its own (an export): refused before anything is written
when that place cannot or must not take it.

``inspector export STORE -o STORE`` replaced the store itself with sif/1 text and said
"wrote …" (exit 0): every record, the ledger and its key gone, and the next ``verify`` said
"not a Context Inspector store". A missing folder was reported as "the store could not be read
or written (No such file or directory)", which sent the reader to a store that was fine. The
report command already refused both (services/report.py); this says the same for exports.

A disk that fills while the file is written (store-fault-six): ``export`` said "the disk
holding the store is full" (the store's disk was not), after a traceback of the export's
record reader closed behind a closed store; ``export --original`` left ``FILE.partial``
behind. :func:`written` removes the partial file and names the file whose disk is full.

An export stopped outright (SIGKILL, a power cut) cannot remove its partial file: it was left
as ``FILE.partial`` and nothing ever said so (store-fault-six). The partial file now names its
writer (``FILE.PID.partial``, :func:`partial_for`), so two exports to one file never write the
same partial, and the next export to ``FILE`` removes those whose writer is gone and says so
(:func:`remove_stale_partials`).

An output named by a device, a FIFO or a socket was replaced by a regular file (the finished file
is moved over the name): run as root, ``report -o /dev/full`` said "wrote /dev/full" and left a
337 KB page where the device had been; a symbolic link was replaced by a file of its own, its
target left as it was (newuser-19). :func:`write_target` writes through a link, as a shell's
``>`` does, and refuses any name that is not a regular file.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from inspector.domain.errors import BadInput, InspectorError
from inspector.store.faults import explain
from inspector.store.process_alive import alive

SQLITE_MAGIC = b"SQLite format 3\x00"


def companion_refusal(path: Path, what: str) -> BadInput | None:
    """``bad_output`` for a name SQLite keeps beside a database (``s.db-wal``, ``-shm``, ``-journal``),
    the link's and the file's it leads to. ``export s.db -o s.db-wal`` said "wrote s.db-wal" while its
    file replaced the open store's live log, and SQLite removed it when the store closed: the export
    gone, the store's log swapped under it (storefault-ten)."""
    for name in {path, Path(os.path.realpath(path))}:
        for suffix, kind in (("-wal", "log"), ("-shm", "log index"), ("-journal", "journal")):
            owner = name.with_name(name.name[: -len(suffix)]) if name.name.endswith(suffix) else None
            if owner is not None and _starts_with(owner, SQLITE_MAGIC):
                return BadInput(f"{path} is the name SQLite keeps the {kind} of the database {owner.name} under: a "
                                f"{what} written there would replace it, and SQLite would remove it; nothing was "
                                f"written — give the {what} a file name of its own", code="bad_output")
    return None


def _starts_with(path: Path, magic: bytes) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(len(magic)) == magic
    except OSError:  # none there, a folder, unreadable
        return False


_NOT_FILES = ((stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"), (stat.S_ISFIFO, "FIFO (named pipe)"),
              (stat.S_ISSOCK, "socket"))


def write_target(path: Path, what: str) -> Path:
    """The file an output named ``path`` is written to: the file a symbolic link leads to, or
    ``path``. A device, FIFO or socket is refused (``bad_output``): the finished file is moved
    over the name, which would replace the node with a page of text (``/dev/null`` included,
    as root), and writing into it instead would say "wrote" of bytes no file holds."""
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    except OSError as exc:  # a link loop, a folder on the way that cannot be read
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}; nothing was written", code="bad_output") from None
    for test, kind in _NOT_FILES:
        if test(mode):
            raise BadInput(f"{path} is a {kind}, not a file: the {what} is written to a file and moved into place, "
                           f"which would replace it; nothing was written — give the {what} a file name",
                           code="bad_output")
    return target


def check_output(path: Path, what: str) -> Path:
    """The file to write (:func:`write_target`), after refusing (``bad_output``, nothing written) a
    folder, a missing folder, a database, or a name SQLite keeps beside one (:func:`companion_refusal`)."""
    companion = companion_refusal(path, what)
    if companion is not None:
        raise companion
    if path.is_dir():
        raise BadInput(f"{path} is a folder; give a file name for the {what}", code="bad_output")
    if not path.parent.is_dir():
        raise BadInput(f"cannot write {path}: folder {path.parent} does not exist", code="bad_output")
    if path.is_file():
        try:
            with path.open("rb") as existing:
                head = existing.read(len(SQLITE_MAGIC))
        except OSError as exc:
            raise BadInput(f"cannot write {path}: {exc.strerror}", code="bad_output") from None
        if head == SQLITE_MAGIC:  # a store (maybe the one being exported): never replaced by an export
            raise BadInput(f"{path} is a database (a store?); give the {what} a file name of its own",
                           code="bad_output")
    return write_target(path, what)


def partial_for(path: Path) -> Path:
    """Where this process writes ``path`` until it is complete: beside it, named by this process."""
    return path.with_name(f"{path.name}.{os.getpid()}.partial")




def remove_stale_partials(path: Path) -> list[str]:
    """Remove the partial files of ``path`` left by writers no longer running (an export
    killed mid-way, or by an earlier version: ``FILE.partial``); their names, to be said."""
    removed: list[str] = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return removed
    prefix = f"{path.name}."
    for name in sorted(names):
        if not name.startswith(prefix) or not name.endswith(".partial"):
            continue
        middle = name[len(prefix):-len(".partial")]
        if middle and (not middle.isdigit() or int(middle) == os.getpid() or alive(int(middle))):
            continue  # not a partial of this file, or one a running export is writing
        try:
            if (path.parent / name).is_file():
                (path.parent / name).unlink()
                removed.append(name)
        except OSError:
            continue
    return removed


def stale_said(removed: list[str]) -> list[str]:
    """The line saying which partial files an earlier, stopped export left and this one removed."""
    if not removed:
        return []
    return [f"removed {', '.join(removed)}: left by an export that was stopped before it finished"]


def replace_with(partial: Path, path: Path) -> None:
    """Move the finished ``partial`` into place, or remove it and say why it could not be."""
    try:
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise BadInput(f"cannot write {path}: {exc.strerror}", code="bad_output") from None


def open_partial(partial: Path, path: Path, mode: str, encoding: str | None = None,
                 newline: str | None = None) -> IO[Any]:
    """``partial`` opened for writing, or the reason ``path`` cannot be written (``bad_output``)."""
    try:
        return partial.open(mode, encoding=encoding, newline=newline)
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}", code="bad_output") from None


def write_failed(exc: OSError, path: Path) -> InspectorError:
    """The error for a write of ``path`` that failed: a full disk said as such (``disk_full``,
    naming ``path``, not the store), anything else ``bad_output``."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return explain(exc, str(path))
    return BadInput(f"cannot write {path}: {exc.strerror or exc}; nothing was written", code="bad_output")


@contextmanager
def written(partial: Path, path: Path, mode: str, encoding: str | None = None,
            newline: str | None = None) -> Iterator[IO[Any]]:
    """Write ``partial``, then move it to ``path``; on any failure (a full disk while writing or
    closing it included) remove it, so nothing half-written is left, and say which file failed."""
    fh = open_partial(partial, path, mode, encoding=encoding, newline=newline)
    try:
        with fh:
            yield fh
    except BaseException as exc:
        partial.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise write_failed(exc, path) from None
        raise
    replace_with(partial, path)
