"""A store that cannot be written opens read-only: every reading command and the app work,
every writing act is refused (exit 3, ``read_only``) or greyed out, and the file is unchanged.

The real case is a read-only medium. Tests run as root, where file modes do not stop
writes, so the CLI test mounts the folder read-only in a private mount namespace
(``unshare -rm``), skipped with the reason when that is not allowed here; the service and
app tests open the store with the read-only flag, the same code path.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.domain.errors import InspectorError
from inspector.services.candidates import accept
from inspector.services.expanding import expand
from inspector.services.sessions import list_sessions
from inspector.services.verifying import verify_store
from inspector.store import connection
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.review_dialog import ReviewDialog
from inspector.ui.widgets.header_bar import HeaderBar
from tests.conftest import SAMPLES, file_sha
from tests.test_app import settle


async def test_a_store_opened_read_only_reads_verifies_and_expands_but_never_writes(sample_store: Path) -> None:
    before = file_sha(sample_store)
    async with await open_store(sample_store, read_only=True) as store:
        assert store.read_only and len(await list_sessions(store)) == 6
        assert (await verify_store(store)).ok
        stub = (await store.db.execute_fetchall("SELECT id FROM stubs LIMIT 1"))[0][0]
        expansion = await expand(store, stub, actor="t", byte_range=(0, 10))
        assert expansion.verified and not expansion.recorded and len(expansion.data) == 10
        with pytest.raises(InspectorError) as refused:
            await accept(store, "cand-good", actor="alice")
        assert refused.value.code == "read_only" and "read-only" in refused.value.message
    assert file_sha(sample_store) == before


SCRIPT = r"""
import json, subprocess, sys
src, mnt, sample = sys.argv[1:4]
subprocess.run(["mount", "--bind", src, mnt], check=True)
subprocess.run(["mount", "-o", "remount,bind,ro", mnt], check=True)
def run(*args):
    p = subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True)
    return {"args": list(args), "code": p.returncode, "out": p.stdout, "err": p.stderr}
store = mnt + "/s.db"
print(json.dumps([
    run("sessions", store, "--json"),
    run("verify", store, "--json"),
    run("ledger", store, "--json"),
    run("check", store, "--json"),
    run("import", sample, "--into", store, "--json"),
    run("import", sample, "--into", mnt + "/new.db", "--json"),
    run("accept", store, "cand-good", "--reviewer", "alice", "--json"),
]))
"""


def test_on_a_read_only_medium_reading_works_and_writing_says_so(sample_store: Path, tmp_path: Path) -> None:
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed: cannot mount a folder read-only without touching the host")
    src, mnt = tmp_path / "medium", tmp_path / "mnt"
    src.mkdir()
    mnt.mkdir()
    shutil.copy(sample_store, src / "s.db")
    for suffix in ("-wal", "-shm"):
        assert not Path(f"{src / 's.db'}{suffix}").exists()  # closed cleanly: WAL's files must be made on open
    before = file_sha(src / "s.db")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"a private mount namespace is not allowed here ({probe.stderr.decode().strip()})")
    done = subprocess.run(["unshare", "-rm", sys.executable, "-c", SCRIPT, str(src), str(mnt),
                           str(SAMPLES["01_export_timeout"])], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    sessions, verify, ledger, check, into_existing, into_new, accepted = json.loads(done.stdout)
    assert sessions["code"] == 0 and len(json.loads(sessions["out"])) == 6, sessions
    assert verify["code"] == 0 and json.loads(verify["out"])["ok"], verify
    assert ledger["code"] == 0 and check["code"] in (0, 1), (ledger, check)
    for refused in (into_existing, into_new, accepted):
        assert refused["code"] == 3, refused
        assert json.loads(refused["out"])["error"]["code"] == "read_only", refused
        assert len(refused["err"].strip().splitlines()) == 1 and "Traceback" not in refused["err"]
    assert "read-only medium" in json.loads(into_existing["out"])["error"]["message"]
    assert file_sha(src / "s.db") == before and not (src / "new.db").exists()


WAL_SCRIPT = r"""
import json, subprocess, sys
src, mnt = sys.argv[1:3]
subprocess.run(["mount", "--bind", src, mnt], check=True)
subprocess.run(["mount", "-o", "remount,bind,ro", mnt], check=True)
p = subprocess.run([sys.executable, "-m", "inspector", "sessions", mnt + "/s.db", "--json"], capture_output=True,
                   text=True)
print(json.dumps({"code": p.returncode, "out": p.stdout, "err": p.stderr}))
"""


def test_commits_left_in_a_write_ahead_log_are_never_silently_dropped(sample_store: Path, tmp_path: Path) -> None:
    import sqlite3

    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"]).returncode != 0:
        pytest.skip("a private mount namespace is not allowed here: cannot mount a folder read-only")
    src, mnt = tmp_path / "medium", tmp_path / "mnt"
    src.mkdir()
    mnt.mkdir()
    shutil.copy(sample_store, src / "s.db")
    con = sqlite3.connect(src / "s.db")  # a writer that stops without checkpointing, as after a crash
    con.execute("PRAGMA wal_autocheckpoint = 0")
    con.execute("UPDATE sessions SET title = 'only in the WAL' WHERE id = 's-export'")
    con.commit()
    shutil.copy(src / "s.db", tmp_path / "copy.db")
    shutil.copy(f"{src / 's.db'}-wal", f"{tmp_path / 'copy.db'}-wal")
    con.close()  # closing checkpoints; put back the un-checkpointed state a crash would leave
    shutil.copy(tmp_path / "copy.db", src / "s.db")
    shutil.copy(f"{tmp_path / 'copy.db'}-wal", f"{src / 's.db'}-wal")
    Path(f"{src / 's.db'}-shm").unlink(missing_ok=True)
    done = subprocess.run(["unshare", "-rm", sys.executable, "-c", WAL_SCRIPT, str(src), str(mnt)],
                          capture_output=True, text=True, timeout=120)
    result = json.loads(done.stdout)
    if result["code"] == 0:  # SQLite could read the log: then the commit it holds must show
        assert "only in the WAL" in result["out"]
    else:
        assert result["code"] == 3 and "write-ahead log" in result["err"], result


async def test_the_app_on_a_read_only_store_greys_out_writing_acts(sample_store: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "read_only_reason", lambda _path: "a read-only medium")
    before = file_sha(sample_store)
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen) and screen.store.read_only
        assert "read-only" in str(screen.query_one(HeaderBar).render())
        assert screen.check_action("correct", ()) is None and screen.check_action("verify", ()) is True
        assert screen.check_action("decide_pending", (False,)) is None and screen.check_action("rebuild", ()) is None
        await app.push_screen(ReviewDialog(screen.store, "s-export", "cand-good", "alice"))
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, ReviewDialog)
        assert dialog.check_action("accept", ()) is None and dialog.check_action("reject", ()) is None
        await pilot.press("a")
        await pilot.pause()
    assert file_sha(sample_store) == before
