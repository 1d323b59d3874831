"""A proposed fact's key never spells a sensitive value, so deleting it leaves no copy (hostile review seven).

The extractor proposes a pending goal for a later request and keyed it with the start of the
request as a slug (``goal.later_request.can-you-also-cc-zz-keys-private….6fc276``); the
import's ledger entry lists that key for good. First a deletion said "done" while two ledger
entries kept ``zz-keys-private``, most of the address; then `delete` refused ``copy_kept`` —
honest, but every deletion of such a request was refused. Now the key is made of the value with
each sensitive value replaced by a word (``…can-you-also-cc-email-on-the-rep.b815bb``, its hash
of that text too: domain/fact_keys.py), and the deletion is carried out with nothing kept. A key
that does spell the value — an older store's, or one an imported sif file brings — is still
listed under ``kept`` and `delete` still refuses ``copy_kept``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

SID = "fa000000-0000-0000-0000-000000000001"
MAIL = "zz.keys.private@example.com"


def _line(n: int, role: str, text: str) -> str:
    if role == "user":
        return json.dumps({"type": "user", "sessionId": SID, "uuid": f"u{n}", "parentUuid": f"a{n - 1}" if n else None,
                           "cwd": "/w", "timestamp": f"2026-03-01T10:00:{n:02d}.000Z",
                           "message": {"role": "user", "content": text}}) + "\n"
    return json.dumps({"type": "assistant", "sessionId": SID, "uuid": f"a{n}", "parentUuid": f"u{n}", "cwd": "/w",
                       "timestamp": f"2026-03-01T10:00:{n:02d}.500Z",
                       "message": {"id": f"m{n}", "role": "assistant", "model": "m",
                                   "content": [{"type": "text", "text": text}]}}) + "\n"


def _store(tmp_path: Path, runner: CliRunner) -> Path:
    source, store = tmp_path / f"{SID}.jsonl", tmp_path / "k.db"
    source.write_text(_line(0, "user", "fix the export timeout") + _line(0, "assistant", "on it")
                      + _line(1, "user", f"can you also cc {MAIL} on the report?") + _line(1, "assistant", "sure"),
                      encoding="utf-8")
    assert runner.invoke(cli, ["import", str(source), "--into", str(store), "--reviewer", "r"]).exit_code == 0
    return store


def _keys(store: Path) -> list[str]:
    with sqlite3.connect(store) as con:
        return [k for (k,) in con.execute("SELECT key FROM state_records")]


def _request(runner: CliRunner, store: Path) -> dict:
    assert runner.invoke(cli, ["request-deletion", str(store), "evt:3", "--session", SID, "--reason", "asked",
                               "--reviewer", "r"]).exit_code == 0
    return json.loads(runner.invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)


def test_a_fact_key_spells_a_word_for_the_address_and_delete_keeps_no_copy(tmp_path: Path) -> None:
    runner = CliRunner()
    store = _store(tmp_path, runner)
    later = [k for k in _keys(store) if k.startswith("goal.later_request.")]
    assert later == ["goal.later_request.can-you-also-cc-email-on-the-rep.b815bb"], later
    listing = _request(runner, store)
    assert listing["kept"] == [], listing["kept"]

    result = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and not doc.get("refusals"), doc
    with sqlite3.connect(store) as con:
        payloads = " ".join(p for (p,) in con.execute("SELECT payload FROM ledger"))
        keys = [k for (k,) in con.execute("SELECT key FROM state_records")]
    assert "zz-keys" not in payloads and "zz.keys" not in payloads and "private" not in payloads
    assert not any(k.startswith("goal.later_request.") for k in keys), keys  # the copy was removed
    assert runner.invoke(cli, ["verify", str(store)]).exit_code == 0


def test_a_key_spelling_the_value_from_an_imported_sif_file_is_kept_and_delete_refuses(tmp_path: Path) -> None:
    runner = CliRunner()
    made = _store(tmp_path, runner)
    sif = tmp_path / "old.sif"
    assert runner.invoke(cli, ["export", str(made), "-o", str(sif)]).exit_code == 0
    old_key = "goal.later_request.can-you-also-cc-zz-keys-private.6fc276"  # as the extractor made it before
    sif.write_text(sif.read_text(encoding="utf-8").replace("goal.later_request.can-you-also-cc-email-on-the-rep.b815bb",
                                                           old_key), encoding="utf-8")
    store = tmp_path / "old.db"
    assert runner.invoke(cli, ["import", str(sif), "--into", str(store), "--reviewer", "r"]).exit_code == 0
    assert old_key in _keys(store)

    listing = _request(runner, store)
    assert any("zz-keys-private" in k["name"] for k in listing["kept"]), listing["kept"]
    before = store.read_bytes()
    result = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 1 and [r["code"] for r in doc["refusals"]] == ["copy_kept"], doc
    assert store.read_bytes() == before


def test_a_store_holding_the_former_key_is_not_given_the_same_fact_again(tmp_path: Path) -> None:
    """`facts --write` (and a follow) append the proposals whose key the store lacks: a store made
    before keys left the address out holds the fact under its former key, which counts."""
    runner = CliRunner()
    made = _store(tmp_path, runner)
    sif = tmp_path / "old.sif"
    assert runner.invoke(cli, ["export", str(made), "-o", str(sif)]).exit_code == 0
    old_key = "goal.later_request.can-you-also-cc-zz-keys-private.6fc276"
    sif.write_text(sif.read_text(encoding="utf-8").replace("goal.later_request.can-you-also-cc-email-on-the-rep.b815bb",
                                                           old_key), encoding="utf-8")
    store = tmp_path / "old.db"
    assert runner.invoke(cli, ["import", str(sif), "--into", str(store), "--reviewer", "r"]).exit_code == 0

    listed = json.loads(runner.invoke(cli, ["facts", str(store), "--session", SID, "--json"]).stdout)
    assert [r["status"] for r in listed] == ["pending", "pending"], listed
    assert all("former_key" not in r for r in listed)
    written = json.loads(runner.invoke(cli, ["facts", str(store), "--session", SID, "--write", "--reviewer", "r",
                                             "--json"]).stdout)
    assert written["written"] == [] and sorted(_keys(store)) == [old_key, "goal.main"], written
