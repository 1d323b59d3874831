"""Third hostile round, the CLI, the domain and the store: content never drives the terminal
or the store.

Plain output is one record per line: a value's own line break, tab or carriage return is
marked (``␊ ␉ ␍``), so a title or a key never starts a line that reads as another record or
as the command's verdict; click's usage errors quote bad arguments inert too.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.terminal_safe import line_safe
from inspector.services.importing import import_file
from tests import hostile
from tests.conftest import write_sif

NL = "v\nFORGED\tx\ry"  # a value that would start a line of its own, push columns, print over a line


def _swap(value: Any) -> Any:
    """The hostile session with every escape replaced by a line break, a tab and a CR."""
    if isinstance(value, str):
        for raw in (hostile.OSC52, hostile.OSC0, hostile.OSC8, hostile.CSI_2J, hostile.RLO, hostile.C1_CSI):
            value = value.replace(raw, NL)
        return value
    if isinstance(value, dict):
        return {_swap(k): _swap(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v) for v in value]
    return value


KEY = _swap(hostile.KEY)
SID = hostile.SID


@pytest.fixture(scope="module")
def nl_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("nl")
    store = folder / "nl.db"
    asyncio.run(import_file(write_sif(folder / "nl.jsonl", _swap(hostile.hostile_records())), store, actor="tester"))
    return store


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"INSPECTOR_REVIEWER": "rita"}, prog_name="inspector")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout_bytes.decode() + result.stderr_bytes.decode()


def _broken(out: str) -> list[str]:
    return [line for line in out.split("\n") if line.startswith("FORGED") or "\r" in line or "\t" in line]


READS = [
    ("sessions", "{s}"), ("ledger", "{s}", "--session", SID), ("check", "{s}"), ("drift", "{s}", "--session", SID),
    ("history", "{s}", "--session", SID, "--key", KEY), ("candidates", "{s}", "--session", SID),
    ("validate", "{s}", "cand-evil"), ("handoff", "{s}", "h-evil"), ("deletion", "{s}", "del-evil"),
    ("actions", "{s}", "--session", SID), ("facts", "{s}", "--session", SID), ("survival", "{s}", "--session", SID),
    ("search", "{s}", "FORGED", "--session", SID), ("budget", "{s}", "--session", SID, "--window", "100000"),
    ("verify", "{s}"), ("report", "{s}", "--session", SID, "-o", "{d}/r\nFORGED\t.html"),
    ("export", "{s}", "-o", "{d}/o\nFORGED.jsonl"),
    ("history", "{s}", "--session", f"nope{NL}", "--key", "k"), ("validate", "{s}", f"c{NL}"),
    ("handoff", "{s}", f"h{NL}"), ("expand", "{s}", f"st{NL}"), ("ledger", "{s}", "--session", f"x{NL}"),
    ("sessions", f"/nonexistent{NL}/x.db"), ("import", f"/nonexistent{NL}.jsonl", "--into", "{d}/z.db"),
    ("sessions", "{s}", f"extra{NL}"),  # click's own usage error quoting the argument
    ("check", "{s}", "--only", f"drift{NL}"), ("nocommand" + NL,),
]


@pytest.mark.parametrize("args", READS, ids=[" ".join(a[:1] + a[2:4]).replace("\n", "␊") for a in READS])
def test_plain_output_keeps_one_record_per_line(nl_store: Path, tmp_path: Path, args: tuple[str, ...]) -> None:
    filled = [a.replace("{s}", str(nl_store)).replace("{d}", str(tmp_path)) for a in args]
    _, out = _invoke(*filled)
    assert _broken(out) == [], f"a value's line break, tab or CR reached the output raw:\n{out}"


def test_the_marks_are_readable_and_json_stays_exact(nl_store: Path) -> None:
    _, out = _invoke("sessions", str(nl_store))
    assert "evil v␊FORGED␉x␍ytitle" in out
    code, out = _invoke("sessions", str(nl_store), "--json")
    assert code == 0 and json.loads(out)[0]["title"] == f"evil {NL}title{NL}txt.exe"


def test_an_error_quoting_a_file_name_marks_its_line_break(tmp_path: Path) -> None:
    code, out = _invoke("import", str(tmp_path / "a\nb.jsonl"), "--into", str(tmp_path / "z.db"))
    assert code == 3 and "a␊b.jsonl" in out and len(out.strip().splitlines()) == 1


def test_line_safe_marks_breaks_and_keeps_the_rest() -> None:
    assert line_safe("a\nb\tc\rd\x1b]0;x\x07") == "a␊b␉c␍d␛]0;x␇"
    assert line_safe("plain text") == "plain text" and line_safe(None) == ""


SAMPLE = Path(__file__).resolve().parents[1] / "sample_sessions" / "01_export_timeout.jsonl"


@pytest.mark.parametrize("name", ["file:x.db?mode=memory", "file:x.db?mode=ro", "file:x.db?vfs=none"])
def test_a_store_named_like_an_sqlite_uri_is_a_plain_file(name: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite here reads any name starting ``file:`` as a URI: an import "succeeded" into a memory
    database (or was refused by ``mode=ro``) and every read then found another database."""
    import sqlite3
    monkeypatch.chdir(tmp_path)
    code, out = _invoke("import", str(SAMPLE), "--into", name)
    assert code == 0, out
    code, out = _invoke("sessions", name)
    assert code == 0 and "s-export" in out, out
    code, out = _invoke("verify", name)
    assert code == 0, out
    db = sqlite3.connect(tmp_path / name)  # the file by that very name holds the store
    try:
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 11
    finally:
        db.close()


async def _sample_store(folder: Path, name: str = "s.db") -> Path:
    store = folder / name
    await import_file(SAMPLE, store, actor="tester")
    return store


def _ledger_count(path: Path) -> int:
    import sqlite3
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT COUNT(*) FROM ledger").fetchone()[0])
    finally:
        db.close()


@pytest.mark.parametrize("how", ["deleted", "replaced", "cut"])
async def test_a_write_to_a_store_file_changed_under_it_is_refused(how: str, tmp_path: Path) -> None:
    """The app (or a writer) holds the store open; someone deletes, replaces or truncates the file.
    Before: the correction "succeeded" into the deleted inode or the file moved away."""
    import os
    import shutil

    from inspector.domain.errors import InspectorError
    from inspector.services.corrections import correct
    from inspector.store.connection import open_store
    store_path = await _sample_store(tmp_path)
    other = await _sample_store(tmp_path, "other.db")
    before_other = _ledger_count(other)
    async with await open_store(store_path) as store:
        await correct(store, "s-export", "constraint.k1", "first", reason="r", actor="rita", kind="constraint")
        if how == "deleted":
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(f"{store_path}{suffix}"):
                    os.unlink(f"{store_path}{suffix}")
        elif how == "replaced":  # `mv other.db s.db`, as a restore from a backup does
            shutil.move(store_path, tmp_path / "moved-away.db")
            shutil.copy(other, tmp_path / "incoming.db")
            os.replace(tmp_path / "incoming.db", store_path)
            new_bytes = store_path.read_bytes()
        else:
            os.truncate(store_path, 4096)
        with pytest.raises(InspectorError) as caught:
            await correct(store, "s-export", "constraint.k2", "second", reason="r", actor="rita", kind="constraint")
    assert caught.value.code == f"store_file_{'gone' if how == 'deleted' else how}" and caught.value.exit_code == 1
    if how == "replaced":
        assert store_path.read_bytes() == new_bytes  # the new file untouched
        assert _ledger_count(other) == before_other


# A 1 MB single-line event or summary is read by the sensitive-value patterns (deletion, check),
# the fact rules, and drift's names and amounts. Each was quadratic on some long run: every start
# inside the run read it to its end again (16,000 "1"s took `money` 36 s; 16,000 "中" 5 s).
LONG_RUNS = ["a", "中", "1", "1a", "aа", "a-", "a@a.a@", "http://", "a.", "1 "]


def _scanners() -> dict[str, Any]:
    from inspector.domain.deletion import sensitive_values
    from inspector.domain.disguise import undisguise
    from inspector.domain.facts import extract
    from inspector.domain.invented import named_identifiers
    from inspector.domain.logevents import LogEvent
    from inspector.domain.said_numbers import money
    from inspector.domain.text_checks import sensitive_data
    return {"deletion values": sensitive_values, "check sensitive data": sensitive_data,
            "fact rules": lambda s: extract([LogEvent(1, "user_message", "user", s),
                                             LogEvent(2, "tool_result", "tool", s, tool="x", call_id="c")]),
            "drift names": named_identifiers.__wrapped__, "undisguise": undisguise, "drift amounts": money}


def _best_of_three(fn: Any, text: str) -> float:
    """CPU time of this thread, not the wall clock: other processes on a loaded machine do not
    count, so the ×9 bound below judges the scanner's own work."""
    import time
    best = float("inf")
    for _ in range(3):
        started = time.thread_time()
        fn(text)
        best = min(best, time.thread_time() - started)
    return best


@pytest.mark.parametrize("unit", LONG_RUNS)
def test_the_scanners_take_linear_time_on_one_long_line(unit: str) -> None:
    """Four times the input may take about four times as long, never sixteen (quadratic). A linear
    scanner reads 16,000 characters in a few milliseconds; the quadratic ones took 0.3–36 s, so a
    run is judged only past 0.2 s, where a loaded machine's noise cannot make a ×9."""
    slow = []
    for name, fn in _scanners().items():
        small, large = unit * (4_000 // len(unit)), unit * (16_000 // len(unit))
        t_small, t_large = _best_of_three(fn, small), _best_of_three(fn, large)
        if t_large > 0.2 and t_large > 9 * t_small:
            slow.append(f"{name}: {t_small:.3f}s → {t_large:.3f}s")
    assert slow == [], f"quadratic on {unit!r} × 16,000: {slow}"


async def _store_with_its_own_log(folder: Path) -> tuple[Path, bytes]:
    """A store copied with its -wal while a writer had it open (a crash leaves the same): the log
    holds a correction the file does not."""
    import shutil

    from inspector.services.corrections import correct
    from inspector.store.connection import open_store
    store = await _sample_store(folder, "live.db")
    async with await open_store(store) as opened:
        await opened.db.execute("PRAGMA wal_autocheckpoint = 0")
        await correct(opened, "s-export", "constraint.in_log", "only in the log", reason="r", actor="rita",
                      kind="constraint")
        crashed = folder / "crashed.db"
        for suffix in ("", "-wal"):
            shutil.copy(f"{store}{suffix}", f"{crashed}{suffix}")
    return crashed, Path(f"{crashed}-wal").read_bytes()


@pytest.mark.parametrize("sidecar", ["-wal", "-journal"])
def test_another_databases_log_beside_a_store_is_refused_and_the_store_kept(sidecar: str, tmp_path: Path) -> None:
    """Before: ``verify`` (a read) applied the other database's pages and left a damaged file."""
    import sqlite3
    store = asyncio.run(_sample_store(tmp_path))
    original = store.read_bytes()
    if sidecar == "-wal":
        (tmp_path / "other").mkdir()
        _, foreign = asyncio.run(_store_with_its_own_log(tmp_path / "other"))  # another store's log
    else:  # a hot rollback journal of another database, as a crash mid-transaction leaves one
        other = tmp_path / "j.db"
        db = sqlite3.connect(other)
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("CREATE TABLE t(a)")
        db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(2000)])
        db.commit()
        db.execute("PRAGMA cache_size = 1")
        db.execute("BEGIN")
        db.execute("UPDATE t SET a = a + 1")
        foreign = Path(f"{other}-journal").read_bytes()
        db.rollback()
        db.close()
    Path(f"{store}{sidecar}").write_bytes(foreign)
    for args in (("verify", str(store)), ("sessions", str(store))):
        code, out = _invoke(*args)
        assert code == 3 and f"s.db{sidecar} lies beside the store" in out, out
    assert store.read_bytes() == original  # the store untouched, whatever was opened
    Path(f"{store}{sidecar}").unlink()
    assert _invoke("verify", str(store))[0] == 0


def test_a_log_that_adds_a_table_and_leaves_the_ledger_alone_is_refused(tmp_path: Path) -> None:
    """A copy of the store made another table in its own log: that log reads the same ledger head
    (its pages are not the ledger's), so the head check took it for the store's own; opening the
    store wrote the copy's pages over it (verify: 46 damaged pages, a table zz; fresh-eyes, session 11)."""
    import shutil
    import sqlite3
    store = asyncio.run(_sample_store(tmp_path))
    other = tmp_path / "copy.db"
    shutil.copy(store, other)
    db = sqlite3.connect(other)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute("CREATE TABLE zz(x)")
    db.executemany("INSERT INTO zz VALUES (?)", [("x" * 500,) for _ in range(200)])
    db.commit()
    foreign = Path(f"{other}-wal").read_bytes()
    db.close()
    original = store.read_bytes()
    Path(f"{store}-wal").write_bytes(foreign)
    for args in (("check", str(store)), ("sessions", str(store)), ("verify", str(store))):
        code, out = _invoke(*args)
        assert code == 3 and "s.db-wal lies beside the store" in out, (args, out)
    assert store.read_bytes() == original


def test_a_stores_own_log_left_by_a_crash_is_read(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    crashed, _ = asyncio.run(_store_with_its_own_log(tmp_path / "other"))
    code, out = _invoke("history", str(crashed), "--session", "s-export", "--key", "constraint.in_log")
    assert code == 0 and "only in the log" in out, out
    assert _invoke("verify", str(crashed))[0] == 0
