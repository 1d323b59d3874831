"""A name or ledger entry holding a deleted value in this round's spellings makes the deletion
refuse (``copy_kept``) instead of saying "done" (hostile review nine).

Before: a material id holding the e-mail ROT13-ed, a state key holding the phone number in
Chinese numerals, a tool name holding it reversed, or an imported ledger note holding the e-mail
in quoted-printable (``=40``, which an imported payload keeps as an identifier) was not seen:
``delete`` said "done" and the value stayed in names no deletion can rewrite.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
SID = "s-kept"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"

CASES: dict[str, tuple[dict[str, Any], str]] = {
    "a material id, rot13": ({"type": "material", "session": SID, "id": "res:" + codecs.encode(MAIL, "rot13"),
                              "source_event": 2, "disclosure_scope": "task", "content": "x",
                              "media_type": "text/plain", "retrieved_at": AT}, "material id"),
    "a state key, chinese numerals": ({"type": "state", "session": SID, "key": "contact.一三九一二三四五六七八",
                                       "kind": "constraint", "value": "v", "writer": "user", "sources": ["evt:2"],
                                       "version": 1}, "state key"),
    "a tool name, reversed": ({"type": "event", "session": SID, "seq": 3, "kind": "tool_call", "trust": "model",
                               "at": AT, "call_id": "c9", "tool": "send_" + PHONE[::-1], "args": {}}, "tool name"),
    "an imported ledger note, quoted-printable": ({"type": "ledger", "session": SID, "kind": "harness.note",
                                                   "actor": "bot", "at": AT,
                                                   "payload": {"note": "zq.hidden.person=40example.org"}},
                                                  "ledger entry"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_deletion_refuses_and_names_the_copy(tmp_path: Path, case: str) -> None:
    record, what = CASES[case]
    records = [{"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
               {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                "content": f"call {PHONE} mail {MAIL}"},
               {"type": "event", "session": SID, "seq": 2, "kind": "assistant_message", "trust": "model", "at": AT,
                "content": "ok"},
               record,
               {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "mine"}]
    store = tmp_path / "s.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(write_sif(tmp_path / "in.jsonl", records)), "--into",
                               str(store)]).exit_code == 0
    kept = json.loads(runner.invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)["kept"]
    assert [k for k in kept if k["what"] == what], kept
    if what == "ledger entry":  # which field, said in words (never "field(s)")
        assert any("its payload field note" in k["why"] for k in kept), kept
    before = store.read_bytes()
    done = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 1 and [r["code"] for r in json.loads(done.stdout)["refusals"]] == ["copy_kept"]
    assert store.read_bytes() == before
