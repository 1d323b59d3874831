"""Reading a file a person names for import: regular files only, bounded in size.

``Path.read_bytes`` on a FIFO waits forever for a writer, on ``/dev/zero`` reads until
memory runs out, on a directory fails with an OS message. Every importer reads through
:func:`read_import_file`, which opens without blocking, looks at what it opened, and
refuses anything but a regular file, or one larger than the bound, at once (exit 3).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from inspector.domain.errors import BadInput

MAX_IMPORT_BYTES = 4 << 30  # 4 GiB; INSPECTOR_MAX_IMPORT_BYTES overrides (tests, small machines)


def max_import_bytes() -> int:
    try:
        value = int(os.environ.get("INSPECTOR_MAX_IMPORT_BYTES", MAX_IMPORT_BYTES))
    except ValueError:
        return MAX_IMPORT_BYTES
    return value if value > 0 else MAX_IMPORT_BYTES  # "-1" or "0" is no bound a person means


def _what(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading when it is a regular file (a FIFO, a device such as
    ``/dev/zero``, a directory or a socket is :class:`BadInput` ``not_a_file`` at once, never a
    wait), for a caller that reads it in parts (``follow``)."""
    fd = _open_checked(path)
    try:
        return os.fdopen(fd, "rb")
    except OSError as exc:
        os.close(fd)
        raise BadInput(f"cannot read {path}: {exc.strerror}", code="unreadable") from None


def _open_checked(path: Path) -> int:
    """A descriptor of ``path`` once it is known, before and after opening, to be a regular file."""
    if str(path) == "-" and not os.path.lexists(path):  # a script's `… | inspector import - --into s.db`
        raise BadInput("`-` is a file name here, not standard input: save the input to a file first "
                       "(`… > run.jsonl`) and pass its path (the file's name is kept as the transcript's)",
                       code="unreadable")
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise BadInput(f"{path} is {_what(mode)}, not a regular file; only files can be imported",
                           code="not_a_file")
        # O_NONBLOCK: should the path become a FIFO between stat and open, opening still returns at once.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}", code="unreadable") from None
    try:
        info = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise BadInput(f"cannot read {path}: {exc.strerror}", code="unreadable") from None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise BadInput(f"{path} is {_what(info.st_mode)}, not a regular file; only files can be imported",
                       code="not_a_file")
    return fd


def read_import_file(path: Path) -> bytes:
    """The whole file's bytes, or :class:`BadInput` (``not_a_file``, ``too_large``, ``unreadable``)."""
    limit = max_import_bytes()
    fd = _open_checked(path)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise BadInput(f"{path} is {size:,} bytes, more than the {limit:,} an import takes "
                           "(INSPECTOR_MAX_IMPORT_BYTES raises the bound)", code="too_large")
        with os.fdopen(os.dup(fd), "rb") as fh:
            # The size seen now: a transcript still being written is read as of this moment.
            return fh.read(size)
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}", code="unreadable") from None
    finally:
        os.close(fd)
