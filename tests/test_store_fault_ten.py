"""A hostile environment, tenth pass (storefault-ten): faults no earlier pass tried, each one coded
sentence, exit 3 (verify: its break, exit 1, where it reports one), no traceback, and not a byte of
the folder changed. Each failed on main (ed8bf83) as said beside it.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_store_fault_sweep import _snapshot


def _sql(statement: str) -> Callable[[Path, Path], Path]:
    def make(folder: Path, good: Path) -> Path:
        store = folder / "s.db"
        shutil.copyfile(good, store)
        with closing(sqlite3.connect(store)) as db:
            db.execute(statement)
            db.commit()
        return store
    return make


def _linked_to(beside: Callable[[Path], None]) -> Callable[[Path, Path], Path]:
    """The store named through a symbolic link, with something odd beside the file it leads to."""
    def make(folder: Path, good: Path) -> Path:
        real = folder / "real"
        real.mkdir()
        shutil.copyfile(good, real / "x.db")
        beside(real / "x.db-wal")
        os.symlink(real / "x.db", folder / "s.db")
        return folder / "s.db"
    return make


def _appended(folder: Path, good: Path) -> Path:
    store = folder / "s.db"
    shutil.copyfile(good, store)
    with store.open("ab") as fh:
        fh.write(b"junk" * 100)
    return store


def _second_name(folder: Path, good: Path) -> Path:
    shutil.copyfile(good, folder / "a.db")
    os.link(folder / "a.db", folder / "s.db")
    return folder / "s.db"


# kind -> (make, code every command says at open, or None: opened and read; the act's code; verify's break or None)
OPEN: dict[str, tuple[Callable[[Path, Path], Path], str | None, str, str | None]] = {
    # main: KeyError -1, a traceback from every command
    "format number -1": (_sql("PRAGMA user_version = -1"), "format_number_differs", "format_number_differs",
                         "format_number_differs"),
    # main: damaged_store "cannot be read: table store_meta already exists"
    "format number 0 on a store with tables": (_sql("PRAGMA user_version = 0"), "format_number_differs",
                                               "format_number_differs", "format_number_differs"),
    # main: the FIFO beside the real file taken as the log (and removed), accept io_error
    "a link to a store whose -wal is a FIFO": (_linked_to(os.mkfifo), "log_not_a_file", "log_not_a_file", None),
    # main: "unable to open database file"
    "a link to a store whose -wal is a folder": (_linked_to(lambda p: p.mkdir()), "log_not_a_file", "log_not_a_file",
                                                 None),
    # main: accept "accepted" (exit 0) on a store verify calls damaged_store
    "bytes appended to the file": (_appended, None, "damaged_store", "damaged_store"),
    # main: accept made under one name while another program's log is under the other: one of them lost
    "a second name for the file (a hard link)": (_second_name, None, "store_hard_linked", None),
}


@pytest.mark.parametrize("kind", list(OPEN))
def test_each_fault_is_one_coded_sentence_and_changes_nothing(kind: str, sample_store: Path, tmp_path: Path) -> None:
    make, at_open, at_act, broken = OPEN[kind]
    folder = tmp_path / "store"
    folder.mkdir()
    store = make(folder, sample_store)
    real = folder / "real"  # the folder a link leads to: the FIFO or folder there stays as it was
    before, before_real = _snapshot(folder), _snapshot(real) if real.exists() else None
    for command, extra in {"sessions": [], "accept": ["cand-good", "--reviewer", "lin"], "verify": []}.items():
        result = CliRunner().invoke(cli, [command, str(store), *extra, "--json"])
        assert result.exception is None or isinstance(result.exception, SystemExit), (kind, command, result.exception)
        said = json.loads(result.stdout)
        if command == "verify" and broken is not None:
            assert result.exit_code == 1 and said["first_break"]["code"] == broken, (kind, result.output)
        elif command == "accept" or at_open is not None:
            assert result.exit_code == 3, (kind, command, result.output)
            assert said["error"]["code"] == (at_act if command == "accept" else at_open), (kind, command, said)
        else:
            assert result.exit_code == 0, (kind, command, result.output)
        assert _snapshot(folder) == before, (kind, command)
        assert (_snapshot(real) if real.exists() else None) == before_real, (kind, command)


@pytest.mark.parametrize("name", ["s.db-wal", "s.db-shm", "s.db-journal", "link-to-wal"])
@pytest.mark.parametrize("command", ["export", "report"])
def test_an_export_or_report_onto_a_name_sqlite_keeps_beside_a_store_is_refused(
        sample_store: Path, tmp_path: Path, name: str, command: str) -> None:
    """main: ``export s.db -o s.db-wal`` said "wrote s.db-wal" while its file replaced the open store's
    log, and SQLite removed it at close: the export gone, nothing said."""
    folder = sample_store.parent
    out = folder / name
    if name == "link-to-wal":
        os.symlink(folder / f"{sample_store.name}-wal", out)
    out_name = out if name == "link-to-wal" else folder / name.replace("s.db", sample_store.name)
    before = _snapshot(folder)
    extra = ["--session", "s-export"] if command == "report" else []
    result = CliRunner().invoke(cli, [command, str(sample_store), *extra, "-o", str(out_name), "--json"])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "bad_output" and "SQLite keeps" in error["message"], error
    assert _snapshot(folder) == before


def _verify_json(store: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    result = CliRunner().invoke(cli, ["verify", str(store), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_an_unreadable_heads_file_is_said_and_never_written_over(sample_store: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """main: a heads file that is not JSON read as "no head remembered": verify compared nothing,
    said nothing, and wrote it over — every store's remembered head on this machine gone."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "heads.json").write_bytes(b"\x00{not json")
    report = _verify_json(sample_store, {"INSPECTOR_DATA_DIR": str(data)}, monkeypatch)
    assert report["ok"] is True
    said = " ".join(report["not_checked"])  # type: ignore[arg-type]
    assert "heads.json is not the heads file this tool writes" in said and "not compared" in said, said
    assert (data / "heads.json").read_bytes() == b"\x00{not json"


def test_a_data_folder_that_is_a_file_is_said(sample_store: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """main: the head silently not remembered (the next verify had nothing to compare, and said only then)."""
    (tmp_path / "data").write_text("a file, not a folder")
    report = _verify_json(sample_store, {"INSPECTOR_DATA_DIR": str(tmp_path / "data")}, monkeypatch)
    assert "cannot be read (Not a directory)" in " ".join(report["not_checked"]), report  # type: ignore[arg-type]
    assert (tmp_path / "data").read_text() == "a file, not a folder"


def test_verify_of_a_store_set_to_a_rollback_journal_writes_nothing(sample_store: Path) -> None:
    """main: verify switched it back to WAL — a write to the file's header by the check that writes nothing."""
    with closing(sqlite3.connect(sample_store)) as db:
        db.execute("PRAGMA journal_mode = DELETE")
    before = _snapshot(sample_store.parent)
    result = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["ok"] is True, result.output
    assert _snapshot(sample_store.parent) == before


@pytest.mark.parametrize("kind", ["format number -1", "a link to a store whose -wal is a FIFO"])
async def test_the_app_opening_such_a_store_shows_a_dialog_with_the_code(kind: str, sample_store: Path,
                                                                         tmp_path: Path) -> None:
    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    make, code, _, _ = OPEN[kind]
    folder = tmp_path / "store"
    folder.mkdir()
    store = make(folder, sample_store)
    before = _snapshot(folder)
    app = InspectorApp(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert getattr(app.screen, "dialog_title", "") == f"Cannot do that ({code})", app.screen
    assert _snapshot(folder) == before


def test_an_import_into_a_name_too_long_says_it_as_every_open_does(tmp_path: Path) -> None:
    """main: ``io_error`` "the store could not be read or written (File name too long)" from import
    alone (its checks of the name stat it before any open); every other command: ``not_a_store``."""
    into = tmp_path / ("a" * 300 + ".db")
    source = Path(__file__).parents[1] / "sample_sessions" / "01_export_timeout.jsonl"
    before = _snapshot(tmp_path)
    for args in (["import", str(source), "--into", str(into)], ["sessions", str(into)]):
        result = CliRunner().invoke(cli, [*args, "--json"])
        assert result.exit_code == 3, result.output
        error = json.loads(result.stdout)["error"]
        assert error["code"] == "not_a_store" and "File name too long" in error["message"], error
    assert _snapshot(tmp_path) == before
