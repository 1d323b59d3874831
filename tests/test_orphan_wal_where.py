"""``orphan_wal`` says what can be told of where the store went (storefault-ten; storefault-nine
left "cannot say where a moved store went").

Before: "no store file at s.db, but s.db-wal … move it beside the store under its new name" —
with the moved store beside it in the same folder, unnamed. Now the log's own facts (its commits,
page size, the store's size after them) and the file beside it that takes the log as its own, tried
as the open would try it on a hard link (store/orphan_where.py); with none, said plainly.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from tests.test_store_faults import _child
from tests.test_store_holder_killed import _entries, _folder, _hold_and_act, _kill


def _orphaned(store: Path, away: Path) -> Path:
    """A holder acts, the file is moved to ``away``, the holder is killed: its act only in the log."""
    holder = _hold_and_act(store, "cand-goal")
    os.replace(store, away)
    _kill(holder)
    return Path(f"{store}-wal")


def test_the_store_moved_beside_the_log_is_named(sample_store: Path, tmp_path: Path) -> None:
    other = tmp_path / "another.db"  # another store beside it: tried, not taken
    done = _child(["import", str(Path(__file__).parents[1] / "sample_sessions" / "01_export_timeout.jsonl"),
                   "--into", str(other)])
    assert done.returncode == 0, done.stderr
    away = tmp_path / "away.db"
    entries = _entries(sample_store)
    wal = _orphaned(sample_store, away)
    before = _folder(tmp_path)
    listed = _child(["sessions", str(sample_store), "--json"])
    assert listed.returncode == 3, listed.stderr
    error = json.loads(listed.stdout)["error"]
    assert error["code"] == "orphan_wal"
    message = error["message"]
    assert "the log holds 1 commit in pages of 16,384 bytes" in message, message
    assert f"after which the store was {away.stat().st_size:,} bytes" in message, message
    assert "Beside it, away.db takes this log as its own" in message, message
    assert "move samples.db-wal to away.db-wal" in message and "another.db" not in message, message
    assert _folder(tmp_path) == before  # the tries on hard links left nothing behind, changed nothing
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    os.replace(wal, Path(f"{away}-wal"))  # as the sentence says
    Path(f"{sample_store}-shm").unlink(missing_ok=True)
    assert _child(["verify", str(away)]).returncode == 0 and _entries(away) == entries + 1


def test_a_store_moved_elsewhere_is_said_to_be_beyond_telling(sample_store: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _orphaned(sample_store, elsewhere / "away.db")
    shutil.copyfile(Path(__file__).parents[1] / "sample_sessions" / "01_export_timeout.jsonl", tmp_path / "t.jsonl")
    listed = _child(["sessions", str(sample_store), "--json"])
    message = json.loads(listed.stdout)["error"]["message"]
    assert "the log holds 1 commit" in message, message
    assert f"No store in {tmp_path} takes it" in message and "where the store went cannot be told" in message, message
