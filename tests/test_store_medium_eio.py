"""A store on a device that fails to read (EIO) — found with a loop device whose backing file was
cut under a mounted file system (store-fault-seven): ``sessions``, ``verify``, ``search`` said
``not_a_store`` "cannot read s.db: Input/output error", sending the reader to the file (which
may be whole) rather than to the disk. Now ``io_error``, exit 3, naming the disk.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


@pytest.mark.parametrize("command", [["sessions"], ["verify"]])
def test_a_store_whose_disk_fails_to_read_is_an_io_error_not_a_non_store(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    real_open = Path.open

    def failing(self: Path, *args: object, **kwargs: object) -> object:
        if self == sample_store:
            raise OSError(errno.EIO, "Input/output error")
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", failing)
    result = CliRunner().invoke(cli, [*command, str(sample_store), "--json"])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "io_error" and "failed at the disk" in error["message"], error


@pytest.mark.parametrize("disk_fails", [True, False])
async def test_a_malformed_read_of_an_open_store_on_a_failing_disk_is_an_io_error(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch, disk_fails: bool) -> None:
    """A store already open when its disk fails: SQLite's read came back short and it said
    "database disk image is malformed" — ``damaged_store``, "verify says where it is damaged"
    (seen with the loop device: search and reject in an open process). A read of the file through
    SQLite's own descriptor now tells the disk apart (``io_error``); a disk that reads is still
    ``damaged_store`` (the ``False`` case: a guard, passes before and after)."""
    import os
    import sqlite3

    from inspector.store.connection import open_store, store_error

    async with await open_store(sample_store):
        if disk_fails:
            def failing(fd: int, size: int, offset: int) -> bytes:
                raise OSError(errno.EIO, "Input/output error")
            monkeypatch.setattr(os, "pread", failing)
        said = store_error(sqlite3.DatabaseError("database disk image is malformed"))
        monkeypatch.undo()
    assert said is not None
    if disk_fails:
        assert said.code == "io_error" and "failed at the disk" in said.message and "not the file's contents" in said.message
    else:
        assert said.code == "damaged_store"
