"""Every hostile thing at a store's path, or at the names SQLite uses beside it, under four commands
(storefault-nine): one sentence with a stable code, the documented exit, no traceback, and not a
byte of the folder changed (compared before and after each command).

Found and fixed here (the rest are guards of what earlier passes fixed):

* a folder, FIFO or symbolic link at ``s.db-wal`` / ``s.db-shm`` / ``s.db-journal``: "not a
  readable store: unable to open database file" (verify: ``damaged_store``, restore an intact
  store from a copy), or a FIFO taken as the log and removed at close, or ``accept`` saying the
  disk was full or failing — now ``log_not_a_file``, nothing opened;
* a ``-wal`` that is not a log at all (random bytes): SQLite ignored it and a read removed it —
  now ``foreign_wal``;
* a store whose header is damaged (page size 3000) or whose first page past the header is zeros:
  ``not_a_store`` "not a readable store" from every command but verify — now ``damaged_store``.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


def _page(store: Path) -> int:
    return int.from_bytes(store.read_bytes()[16:18], "big")


def _cut(pages: int) -> Callable[[Path, Path], None]:
    def make(s: Path, good: Path) -> None:
        s.write_bytes(good.read_bytes()[: pages * _page(good)])
    return make


def _sql(s: Path, good: Path, statement: str) -> None:
    shutil.copyfile(good, s)
    with closing(sqlite3.connect(s)) as db:
        db.execute(statement)
        db.commit()


def _patched(s: Path, good: Path, at: int, data: bytes) -> None:
    raw = bytearray(good.read_bytes())
    raw[at:at + len(data)] = data
    s.write_bytes(bytes(raw))


def _beside(suffix: str, make: Callable[[Path], None]) -> Callable[[Path, Path], None]:
    def build(s: Path, good: Path) -> None:
        shutil.copyfile(good, s)
        make(Path(f"{s}{suffix}"))
    return build


def _loop(s: Path, good: Path) -> None:
    os.symlink(s.with_name("o.db"), s)
    os.symlink(s, s.with_name("o.db"))


def _foreign_wal(s: Path, good: Path) -> None:
    """Another database's log (a table of its own written) beside the store."""
    shutil.copyfile(good, s)
    other = s.with_name("other.db")
    with closing(sqlite3.connect(other)) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA wal_autocheckpoint = 0")
        db.execute("CREATE TABLE t(x)")
        db.execute("INSERT INTO t VALUES (zeroblob(20000))")
        db.commit()
        shutil.copyfile(f"{other}-wal", f"{s}-wal")
    for name in ("other.db", "other.db-wal", "other.db-shm"):
        Path(s.with_name(name)).unlink(missing_ok=True)


# kind -> (how it is made, the code every command says, verify's break code when verify reports one (exit 1))
FAULTS: dict[str, tuple[Callable[[Path, Path], None], str, str | None]] = {
    # found here
    "a folder at -wal": (_beside("-wal", lambda p: p.mkdir()), "log_not_a_file", None),
    "a FIFO at -wal": (_beside("-wal", lambda p: os.mkfifo(p)), "log_not_a_file", None),
    "a link to /dev/zero at -wal": (_beside("-wal", lambda p: os.symlink("/dev/zero", p)), "log_not_a_file", None),
    "a folder at -shm": (_beside("-shm", lambda p: p.mkdir()), "log_not_a_file", None),
    "a FIFO at -shm": (_beside("-shm", lambda p: os.mkfifo(p)), "log_not_a_file", None),
    "a folder at -journal": (_beside("-journal", lambda p: p.mkdir()), "log_not_a_file", None),
    "random bytes at -wal": (_beside("-wal", lambda p: p.write_bytes(bytes(range(256)) * 200)), "foreign_wal", None),
    "a header with page size 3000": (lambda s, g: _patched(s, g, 16, (3000).to_bytes(2, "big")), "damaged_store",
                                     "damaged_store"),
    "the header, then zeros": (lambda s, g: _patched(s, g, 100, bytes(_page(g) * 2)), "damaged_store",
                               "damaged_store"),
    # guards
    "a folder": (lambda s, g: s.mkdir(), "not_a_store", None),
    "a FIFO": (lambda s, g: os.mkfifo(s), "not_a_store", None),
    "a loop of symbolic links": (_loop, "not_a_store", None),
    "a zero-byte file": (lambda s, g: s.write_bytes(b""), "damaged_store", None),
    "another SQLite application's file": (lambda s, g: _sql(s, g, "PRAGMA application_id = 1234"), "not_a_store",
                                          None),
    "a store of format 99": (lambda s, g: _sql(s, g, "PRAGMA user_version = 99"), "unknown_format_version", None),
    "another database's -wal": (_foreign_wal, "foreign_wal", None),
    "a hot -journal of another database": (_beside("-journal", lambda p: p.write_bytes(b"\xd9\xd5\x05\xf9" * 400)),
                                           "foreign_journal", None),
    **{f"cut after page {n}": (_cut(n), "damaged_store", "damaged_store") for n in range(1, 9)},
    "cut inside page 4": (lambda s, g: s.write_bytes(g.read_bytes()[: 3 * _page(g) + 1000]), "damaged_store",
                          "damaged_store"),
}

COMMANDS = {"sessions": [], "verify": [], "accept": ["cand-good", "--reviewer", "lin"], "export": ["-o", "OUT"]}


def _snapshot(folder: Path) -> dict[str, object]:
    seen: dict[str, object] = {}
    for entry in sorted(folder.iterdir()):
        st = os.lstat(entry)
        seen[entry.name] = entry.read_bytes() if stat.S_ISREG(st.st_mode) else (stat.S_IFMT(st.st_mode), (
            os.readlink(entry) if entry.is_symlink() else None))
    return seen


@pytest.mark.parametrize("kind", list(FAULTS))
def test_each_fault_is_one_coded_sentence_and_changes_nothing(kind: str, sample_store: Path, tmp_path: Path) -> None:
    make, code, broken = FAULTS[kind]
    folder = tmp_path / "store"
    folder.mkdir()
    store = folder / "s.db"
    make(store, sample_store)
    before = _snapshot(folder)
    for command, extra in COMMANDS.items():
        args = [command, str(store), *[str(tmp_path / "out.sif") if a == "OUT" else a for a in extra], "--json"]
        result = CliRunner().invoke(cli, args)
        said = json.loads(result.stdout)
        if command == "verify" and broken is not None:  # verify reports a damaged store as a break
            assert result.exit_code == 1 and said["first_break"]["code"] == broken, (kind, result.output)
        else:
            assert result.exit_code == 3, (kind, command, result.output)
            assert said["error"]["code"] == code, (kind, command, said)
            if code == "unknown_format_version":
                assert "format 99" in said["error"]["message"]
        assert result.exception is None or isinstance(result.exception, SystemExit), (kind, command, result.exception)
        assert _snapshot(folder) == before, (kind, command)
    assert not (tmp_path / "out.sif").exists()


@pytest.mark.parametrize("kind", ["a FIFO at -wal", "random bytes at -wal", "the header, then zeros"])
async def test_the_app_opening_such_a_store_shows_a_dialog_with_the_code(kind: str, sample_store: Path,
                                                                         tmp_path: Path) -> None:
    """The app (a store opened from its start screen, or the startup open) shows the refusal in its
    error dialog with the code, never a traceback, and leaves the folder as it was."""
    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    make, code, _ = FAULTS[kind]
    folder = tmp_path / "store"
    folder.mkdir()
    store = folder / "s.db"
    make(store, sample_store)
    before = _snapshot(folder)
    app = InspectorApp(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert getattr(app.screen, "dialog_title", "") == f"Cannot do that ({code})", app.screen
    assert _snapshot(folder) == before
