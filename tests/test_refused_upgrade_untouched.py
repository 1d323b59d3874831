"""A command refused after it opened an older store leaves the file byte for byte as it was
(storefault-ten, lead-16-17 "noticed" 5).

Before, opening upgraded a format-7 store and committed the upgrade before the command read its
input or checked anything: ``import bad.jsonl`` refused at line 4, an ``accept`` refused
``stale_base``, a ``delete`` of an unknown request — each said "nothing was written" (or exit 1)
while the file had become format 8 ("upgraded store format 7 → 8" on stderr). Now the upgrade is
held in a transaction that only an act made commits (store/held_upgrade.py).
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.store.schema import FORMAT_VERSION
from tests.test_format_upgrade_said import _folder, _to_format, _version

_BAD_SIF = "\n".join([
    '{"type":"header","format":"sif/1"}',
    '{"type":"session","id":"z1","title":"t"}',
    '{"type":"event","session":"z1","seq":1,"kind":"user_message","content":"hi","at":"2026-01-01T00:00:00Z",'
    '"trust":"user"}',
    '{"type":"bogus"}',
]) + "\n"

# Every command that opens a store and can then refuse: (arguments after STORE, exit). Exit 1: a
# refusal the command returns; exit 3: bad input found after the open (an unknown id, a bad line).
_REFUSED: dict[str, tuple[list[str], int]] = {
    "import_bad_line_4": (["import", "BAD", "--into", "STORE"], 3),
    "accept_stale": (["accept", "STORE", "cand-stale"], 1),
    "accept_unknown": (["accept", "STORE", "cand-nosuch"], 3),
    "reject_unknown": (["reject", "STORE", "cand-nosuch", "--reason", "r"], 3),
    "correct_unknown_key": (["correct", "STORE", "--session", "s-export", "--key", "nosuch.key", "--value", "v",
                             "--reason", "r"], 3),
    "confirm_nothing_pending": (["confirm", "STORE", "--session", "s-export", "--key", "goal.main"], 1),
    "confirm_all_pending_refused": (["confirm", "STORE", "--session", "s-export", "--all-pending"], 1),
    "correct_summary_unknown": (["correct-summary", "STORE", "--session", "s-export", "--generation", "99",
                                 "--text-file", "TEXT", "--reason", "r"], 3),
    "accept_handoff_refused": (["accept-handoff", "STORE", "h-tools"], 1),
    "accept_handoff_unknown": (["accept-handoff", "STORE", "h-nosuch"], 3),
    "handoff_check_refused": (["handoff", "STORE", "h-tools"], 1),
    "rebase_not_stale": (["rebase", "STORE", "cand-good"], 1),
    "expand_out_of_bounds": (["expand", "STORE", "stub-7", "--range", "0:99999999"], 1),
    "request_deletion_unknown_target": (["request-deletion", "STORE", "--session", "s-export", "evt:999",
                                         "--reason", "r"], 3),
    "delete_unknown": (["delete", "STORE", "del-99"], 3),
    "reconcile_unknown": (["reconcile", "STORE", "a-nosuch", "--status", "succeeded", "--evidence", "evt:1",
                           "--reason", "r"], 3),
    "rebuild_unknown_session": (["rebuild", "STORE", "--session", "nosuch"], 3),
    "drift_unknown_session": (["drift", "STORE", "--session", "nosuch"], 3),
    "budget_unknown_session": (["budget", "STORE", "--session", "nosuch"], 3),
    "search_unknown_session": (["search", "STORE", "--session", "nosuch", "x"], 3),
    "follow_source_truncated": (["follow", "CUT", "--into", "STORE", "--once"], 3),
}


@pytest.mark.parametrize("case", sorted(_REFUSED))
def test_a_refused_command_leaves_an_older_store_byte_for_byte(sample_store: Path, tmp_path: Path,
                                                               case: str) -> None:
    _to_format(sample_store, 7)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(_BAD_SIF, encoding="utf-8")
    text = tmp_path / "summary.txt"
    text.write_text("a corrected summary\n", encoding="utf-8")
    cut = tmp_path / "cut" / "01_export_timeout.jsonl"  # the imported transcript's name, shorter now
    cut.parent.mkdir()
    cut.write_text(_BAD_SIF.split("\n", 1)[0] + "\n", encoding="utf-8")
    before = _folder(sample_store)
    args, code = _REFUSED[case]
    args = [{"STORE": str(sample_store), "BAD": str(bad), "TEXT": str(text), "CUT": str(cut)}.get(a, a) for a in args]
    done = CliRunner().invoke(cli, [*args, "--reviewer", "lin"] if args[0] not in {"drift", "handoff", "budget",
                                                                                   "search", "follow"} else args)
    assert done.exit_code == code, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert "upgraded store format" not in done.output
    assert _folder(sample_store) == before  # the file byte for byte, no -wal or -shm left
    assert _version(sample_store) == 7


def test_the_first_act_made_upgrades_and_verify_passes(sample_store: Path) -> None:
    """Guard of the other side: an act made commits the held upgrade with it, once (one commit mark:
    a log whose commits and marks differ would be refused ``foreign_wal`` at the next open)."""
    _to_format(sample_store, 7)
    done = CliRunner().invoke(cli, ["reject", str(sample_store), "cand-stale", "--reason", "old", "--reviewer", "lin",
                                    "--json"])
    assert done.exit_code == 0, done.output
    assert "upgraded store format 7" in done.output
    assert _version(sample_store) == FORMAT_VERSION
    with closing(sqlite3.connect(f"file:{sample_store}?mode=ro", uri=True)) as db:
        assert db.execute("SELECT status FROM candidates WHERE id = 'cand-stale'").fetchone()[0] == "rejected"
    verified = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    assert verified.exit_code == 0 and json.loads(verified.stdout)["ok"] is True, verified.output
