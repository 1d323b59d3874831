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
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from inspector.domain.errors import BadInput, InspectorError
from inspector.store.faults import explain

SQLITE_MAGIC = b"SQLite format 3\x00"


def check_output(path: Path, what: str) -> None:
    """Refuse (``bad_output``, nothing written) a folder, a missing folder, or a database."""
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
