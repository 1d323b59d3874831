"""An older store is read through an upgraded private copy until its first act (storefault-eleven).

Before, the held upgrade (storefault-ten) ran in a transaction left open on the writer, holding the
store's write lock while a command ran: a second read of the same older store waited for the first,
and an app could not hold the upgrade at all (it would lock out every other command for as long as
it stayed open). tests/test_older_store_busy_said.py has the two reads at once; here the copy's life.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

import pytest

from inspector.services.candidates import reject
from inspector.services.sessions import list_sessions
from inspector.store import read_copy, wal_commits
from inspector.store.connection import open_store
from inspector.store.schema import FORMAT_VERSION
from tests.test_format_upgrade_said import _folder, _version
from tests.test_older_store_busy_said import _to_format_8
from tests.test_store_faults import _child


def _live_version(store: Path) -> int:
    """The format the file holds with its log (``_version`` reads the file alone: a store still open)."""
    with closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


@pytest.fixture
def temp_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


async def test_the_copy_is_read_and_removed_at_close_the_file_untouched(sample_store: Path, temp_folder: Path) -> None:
    _to_format_8(sample_store)
    before = _folder(sample_store)
    async with await open_store(sample_store) as store:
        copies = list(temp_folder.iterdir())
        assert len(copies) == 1 and copies[0].name.startswith(f"{read_copy.PREFIX}{os.getpid()}-")
        assert oct(copies[0].stat().st_mode & 0o777) == "0o700"  # the store's text, readable by its owner only
        assert len(await list_sessions(store)) == 6
        async with store.snapshot() as db:
            assert (await db.execute_fetchall("PRAGMA user_version"))[0][0] == FORMAT_VERSION  # read as current
    assert list(temp_folder.iterdir()) == []
    assert _folder(sample_store) == before and _version(sample_store) == 8


async def test_an_act_upgrades_the_file_and_later_reads_go_to_it(sample_store: Path, temp_folder: Path) -> None:
    _to_format_8(sample_store)
    async with await open_store(sample_store) as store:
        await reject(store, "cand-stale", actor="lin", reason="stale")
        assert store.format_upgraded is not None and store.format_upgraded["from"] == 8
        assert store.read_copy is None and _live_version(sample_store) == FORMAT_VERSION
        async with store.snapshot() as db:  # the file now: its ledger holds the reject
            rows = await db.execute_fetchall("SELECT COUNT(*) FROM ledger WHERE kind = 'candidate.reject'")
        assert rows[0][0] >= 1
    assert list(temp_folder.iterdir()) == []
    assert _child(["verify", str(sample_store)]).returncode == 0  # one commit, one commit mark


async def test_a_store_held_open_reads_the_file_once_another_process_upgraded_it(
        sample_store: Path, temp_folder: Path) -> None:
    """A holder that stays open (the app) read the copy made when it opened: another process's act,
    which upgraded the file, would never have been shown."""
    _to_format_8(sample_store)
    async with await open_store(sample_store) as store:
        done = _child(["reject", str(sample_store), "cand-stale", "--reason", "elsewhere"])
        assert done.returncode == 0 and _live_version(sample_store) == FORMAT_VERSION, done.stderr
        async with store.snapshot() as db:
            rows = await db.execute_fetchall("SELECT payload FROM ledger WHERE kind = 'candidate.reject'")
        assert "elsewhere" in str(rows)
        assert store.read_copy is None and store.held_upgrade is None and store.format_upgraded is None
    assert list(temp_folder.iterdir()) == []


async def test_a_store_held_open_copies_again_when_an_older_inspector_wrote_to_it(
        sample_store: Path, temp_folder: Path) -> None:
    _to_format_8(sample_store)
    async with await open_store(sample_store) as store:
        first = store.read_copy
        with closing(sqlite3.connect(sample_store)) as other, other:  # a format-8 writer's commit
            other.execute("INSERT INTO store_meta(key, value) VALUES ('other', 'format 8 writer')")
        async with store.snapshot() as db:
            rows = await db.execute_fetchall("SELECT value FROM store_meta WHERE key = 'other'")
        assert rows == [("format 8 writer",)]
        assert store.read_copy is not None and store.read_copy is not first and _live_version(sample_store) == 8
    assert list(temp_folder.iterdir()) == []


def test_a_killed_process_copy_is_removed_by_the_next_copy(sample_store: Path, temp_folder: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = temp_folder / f"{read_copy.PREFIX}{int(dead.stdout)}-abc"
    left.mkdir()
    (left / "copy.db").write_bytes(b"a killed command's copy")
    alive = temp_folder / f"{read_copy.PREFIX}1-keep"  # pid 1 runs: its copy stays
    alive.mkdir()
    _to_format_8(sample_store)
    done = subprocess.run([sys.executable, "-m", "inspector", "sessions", str(sample_store)], capture_output=True,
                          text=True, env=dict(os.environ, TMPDIR=str(temp_folder)), timeout=120)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in temp_folder.iterdir()) == [alive.name]


def test_a_slow_copy_is_said_in_the_left_at_format_line() -> None:
    """The copy is paid by every command until the store is upgraded: a second or more of it is said,
    beside the command that ends it."""
    from inspector.store import format_upgrade

    heard: list[str] = []
    format_upgrade.report_to(lambda text, final: heard.append(text))
    try:
        format_upgrade.left_as_it_was(format_upgrade.Upgrade("/x/slow.db", 8, FORMAT_VERSION, 0, 2.54))
        format_upgrade.left_as_it_was(format_upgrade.Upgrade("/x/quick.db", 8, FORMAT_VERSION, 0, 0.2))
        format_upgrade.say_left()
    finally:
        format_upgrade.report_to(None)
    [slow] = [t for t in heard if "slow.db" in t]
    [quick] = [t for t in heard if "quick.db" in t]
    assert "reading it through an upgraded copy took 2.5 s, which every command pays until it is upgraded" in slow
    assert "`inspector upgrade /x/slow.db` upgrades it" in slow and "took" not in quick


async def test_searches_of_an_older_store_read_through_its_copy_find_what_the_upgraded_store_finds(
        sample_store: Path, tmp_path: Path, temp_folder: Path) -> None:
    """The copy is not indexed by a search (a write that would upgrade the file): its searches read the
    events above the watermark instead — the same hits, in the same order, as once it is upgraded."""
    import shutil

    from inspector.services.search import search

    _to_format_8(sample_store)
    upgraded = tmp_path / "upgraded" / "samples.db"
    upgraded.parent.mkdir()
    shutil.copyfile(sample_store, upgraded)
    async with await open_store(upgraded, hold_upgrade=False):
        pass  # upgraded at the open, as `inspector upgrade` does
    queries = [("s-export", "导出"), ("s-export", "超"), ("s-export", "p9"), ("s-weather", "weather"),
               ("s-weather", "天"), ("s-injected", "rule"), ("s-bigfold", "log")]

    def seen(result: object) -> list[tuple[object, ...]]:
        return [(h.where, h.ref, h.occurrences, h.offsets, h.matched) for h in result.hits]  # type: ignore[attr-defined]

    found: dict[str, list[object]] = {"older": [], "upgraded": []}
    for name, path in (("older", sample_store), ("upgraded", upgraded)):
        async with await open_store(path) as store:
            for session, query in queries:
                result = await search(store, session, query)
                found[name].append((result.complete, result.more, seen(result)))
    assert found["older"] == found["upgraded"]
    assert any(hits for _c, _m, hits in found["older"])  # they found something
    assert _version(sample_store) == 8


async def test_an_older_store_s_open_finishes_a_deletion_s_checkpoint(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Storefault-ten "what stays" 2: a deletion's note met by an open whose upgrade was held in a
    transaction on the writer could not be finished there (the checkpoint cannot run inside it): it
    was only named. The copy leaves the writer free: the open finishes it, and leaves the format."""
    from tests.test_deletion_wal_residue import PHONE, _deleted_with_a_reader

    store, reader = await _deleted_with_a_reader(tmp_path, monkeypatch)
    try:
        reader.rollback()  # the reader's snapshot ends; the program stays open
        with closing(sqlite3.connect(store, isolation_level=None)) as db:  # as format 8 left it: an
            # inspector's commit (with its mark) in the log, after the deletion's frames
            db.executescript(f"BEGIN; DROP INDEX events_long_extra; PRAGMA user_version = 8; {wal_commits.MARK_SQL}; "
                             "COMMIT;")
        async with await open_store(store) as opened:
            assert opened.held_upgrade is not None  # read through its copy
            assert opened.deletion_finished is not None and opened.deleted_text_in_file is None
            assert PHONE not in Path(f"{store}-wal").read_bytes()
        assert _live_version(store) == 8 and not Path(f"{store}-deletion").exists()
    finally:
        reader.close()


def test_migrate_reads_an_older_source_through_its_copy_and_leaves_it(sample_store: Path, tmp_path: Path,
                                                                      temp_folder: Path) -> None:
    """``migrate`` only reads its source; it opened it upgraded at once (storefault-ten: holding the upgrade
    on the writer would have held the source's write lock for the whole copy). Now read through the copy."""
    _to_format_8(sample_store)
    before = _folder(sample_store)
    target = tmp_path / "copied" / "new.db"
    target.parent.mkdir()
    done = _child(["migrate", str(sample_store), "--to", str(target), "--json"])
    assert done.returncode == 0, done.stderr
    assert "left at format 8" in done.stderr and "upgraded store format" not in done.stderr, done.stderr
    assert _folder(sample_store) == before and _version(sample_store) == 8
    assert _version(target) == FORMAT_VERSION and _child(["verify", str(target)]).returncode == 0


async def test_an_older_store_too_large_to_copy_is_upgraded_at_open_and_says_why(
        sample_store: Path, temp_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy per command has no bound (×29–×101 on 66.5 MB, and as much temporary disk as the store):
    a store at or over the limit is upgraded at open, no copy made, and the upgrade line says why."""
    _to_format_8(sample_store)
    monkeypatch.setattr(read_copy, "COPY_BELOW", 1)
    async with await open_store(sample_store) as store:
        assert list(temp_folder.iterdir()) == [] and store.read_copy is None
        assert len(await list_sessions(store)) == 6
        done = store.format_upgraded
        assert done is not None and done["from"] == 8 and "too large to read through a private copy" in done["upgraded_at_open"]
        assert "upgraded at open: the store is" in str(done["message"])
    assert _version(sample_store) == FORMAT_VERSION


async def test_an_older_store_under_the_limit_is_still_read_through_its_copy(
        sample_store: Path, temp_folder: Path) -> None:
    _to_format_8(sample_store)
    assert read_copy.too_large(sample_store) == ""
    async with await open_store(sample_store) as store:
        assert store.read_copy is not None and store.format_upgraded is None
    assert _version(sample_store) == 8



def test_a_store_left_at_its_format_earlier_in_the_process_is_not_said_by_the_next_command(
        sample_store: Path, temp_folder: Path, tmp_path: Path) -> None:
    """A long-lived process opened an older store and closed it with no act; the next CLI command, on
    another store, printed "… has store format 8: … left at format 8" of the first at its end — in its
    ``--json`` output too (index-speed found it through two tests run in one process)."""
    import asyncio
    import json

    from click.testing import CliRunner

    from inspector.cli.main import cli

    current = tmp_path / "current.db"
    with closing(sqlite3.connect(sample_store)) as src, closing(sqlite3.connect(current)) as dst:
        src.backup(dst)
    _to_format_8(sample_store)
    async def left_at_8() -> None:
        async with await open_store(sample_store):
            pass  # left at format 8: noted for the end of a command

    asyncio.run(left_at_8())
    out = CliRunner().invoke(cli, ["sessions", str(current), "--json"])
    assert out.exit_code == 0, out.output
    assert "left at format 8" not in out.output and str(sample_store) not in out.output
    assert len(json.loads(out.output)) > 0  # stdout and stderr together: one document, nothing after it


def test_the_app_s_end_still_says_the_older_store_it_left(sample_store: Path, temp_folder: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """`inspector STORE` on an older store, closed with no change: "left at format 8" is said on stderr once
    the app has ended. Starting a command forgets what earlier opens left (the test above); the app's end
    is not a start — a first version of that forgetting lost this line."""
    import asyncio

    from inspector.cli import open_command, upgrade_said

    _to_format_8(sample_store)
    upgrade_said.start()  # as `inspector STORE` begins

    async def app_opens_and_closes() -> None:
        async with await open_store(sample_store):
            pass

    upgrade_said.quiet()  # the app holds the terminal
    asyncio.run(app_opens_and_closes())
    open_command._say_left()
    err = capsys.readouterr().err
    assert f"{sample_store} has store format 8" in err and "left at format 8" in err, err
