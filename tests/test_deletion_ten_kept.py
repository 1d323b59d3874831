"""Names, ledger entries and files beside the store holding a deleted value in round ten's spellings
(docs/reviews/deletion-ten.md).

Before: a state key holding the e-mail in UTF-7, a material id holding it with a dot between every
letter, a tool name holding the phone number in Chinese place-value numerals, or an imported ledger
note holding it in English digit words was not seen — ``delete`` said "done" and the value stayed
in names no deletion can rewrite; a ``notes.json`` beside the store holding it CSS-escaped or in
base32 was not named. Now each name is ``kept`` (with the spelling it was found in) and ``delete``
refuses ``copy_kept``; each file is named in a warning.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
SID = "s-kept-ten"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"

CASES: dict[str, tuple[dict[str, Any], str, str]] = {
    "a state key, utf-7": ({"type": "state", "session": SID, "key": "contact." + MAIL.replace("@", "+AEA-"),
                            "kind": "constraint", "value": "v", "writer": "user", "sources": ["evt:2"], "version": 1},
                           "state key", "UTF-7"),
    "a material id, a dot between every letter": ({"type": "material", "session": SID, "id": "res:" + ".".join(MAIL),
                                                    "source_event": 2, "disclosure_scope": "task", "content": "x",
                                                    "media_type": "text/plain", "retrieved_at": AT},
                                                   "material id", "a separator between every letter"),
    "a tool name, chinese place value": ({"type": "event", "session": SID, "seq": 3, "kind": "tool_call",
                                          "trust": "model", "at": AT, "call_id": "c9",
                                          "tool": "dial_一百三十九亿一千二百三十四万五千六百七十八", "args": {}},
                                         "tool name", "a number in Chinese place-value numerals"),
    # an imported payload keeps only what reads as an identifier (the rest is digested): these words do
    "an imported ledger note, english digit words": ({"type": "ledger", "session": SID, "kind": "harness.note",
                                                      "actor": "bot", "at": AT, "payload": {
                                                          "note": "one-three-nine-one-two-three-four-five-six-seven-eight"}},
                                                     "ledger entry", "a number in English words"),
}


def _records(extra: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
            {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
             "content": f"call {PHONE} mail {MAIL}"},
            {"type": "event", "session": SID, "seq": 2, "kind": "assistant_message", "trust": "model", "at": AT,
             "content": "ok"},
            *extra,
            {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"],
             "requested_by": "user", "reason": "mine"}]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_deletion_refuses_and_names_the_copy_and_its_spelling(tmp_path: Path, case: str) -> None:
    record, what, spelling = CASES[case]
    store = tmp_path / "s.db"
    runner = CliRunner()
    imported = runner.invoke(cli, ["import", str(write_sif(tmp_path / "in.jsonl", _records([record]))), "--into",
                                   str(store)])
    assert imported.exit_code == 0, imported.output
    kept = json.loads(runner.invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)["kept"]
    assert [k["spelling"] for k in kept if k["what"] == what] == [spelling], kept
    before = store.read_bytes()
    done = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 1 and [r["code"] for r in json.loads(done.stdout)["refusals"]] == ["copy_kept"]
    assert store.read_bytes() == before


def test_a_file_beside_the_store_in_this_rounds_spellings_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    store = folder / "s.db"
    source = write_sif(tmp_path / "in.jsonl", _records([]))
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    (folder / "notes.json").write_text(json.dumps({"contact": MAIL.replace("@", "\\40 ")}), encoding="utf-8")
    (folder / "dump.json").write_text(base64.b32encode(MAIL.encode()).decode(), encoding="utf-8")
    (folder / "harmless.json").write_text(json.dumps({"note": "zq.other.person+AEA-example.org one two three"}),
                                          encoding="utf-8")
    listing = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    beside = next((w for w in listing["warnings"] if w.startswith("files beside the store hold a value")), "")
    named = sorted(name for name in ("notes.json", "dump.json", "harmless.json") if name in beside)
    assert named == ["dump.json", "notes.json"], listing["warnings"]
