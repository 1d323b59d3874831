"""A name holding a deleted secret: rewritten when nothing refers to it, else delete refuses.

A session title and the session record's free fields are display values: `delete` gives
them a new value naming the deletion, sealed in its ledger entry, and afterwards none of
the 48 spellings of the three secrets (tests/test_deletion_variants.py) is in the store's
files or its export. A record key, a material (file) name, a stub, action, candidate or
handoff id, or a reviewer's name (a ledger actor) is referred to by rows and by the
append-only ledger: `delete` refuses with ``copy_kept`` naming that copy, and changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_sif
from tests.test_deletion_variants import EMAIL, KEY, PHONE, SID, _records, _run, _variants

AT = "2025-05-01T00:00:00Z"


def _spellings() -> list[tuple[str, bytes]]:
    out = []
    for value in (EMAIL, KEY, PHONE):
        for name, form in _variants(value).items():
            out.append((f"{value} as {name}", form.encode()))
            escaped = json.dumps(form, ensure_ascii=False)[1:-1].encode()
            if escaped != form.encode():
                out.append((f"{value} as {name}, JSON-escaped", escaped))
    return out


def _import(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    store = tmp_path / "n.db"
    assert _run("import", str(write_sif(tmp_path / "n.jsonl", records)), "--into", str(store))[0] == 0
    return store


def test_a_title_and_session_fields_holding_the_secret_are_rewritten_and_no_spelling_stays(tmp_path: Path) -> None:
    records, _copies, _ = _records()
    records[0] = {**records[0], "title": f"call {EMAIL} re {KEY}", "crm": f"tel:{PHONE}"}
    store = _import(tmp_path, records)
    listed = json.loads(_run("deletion", str(store), "del-v", "--json")[1])
    assert listed["kept"] == [], listed["kept"]
    assert ("sessions", SID) in {(c["where"], c["id"]) for c in listed["copies"]}
    code, out = _run("delete", str(store), "del-v", "--json")
    assert code == 0 and json.loads(out)["status"] == "done", out
    sessions = json.loads(_run("sessions", str(store), "--json")[1])
    title = next(s["title"] for s in (sessions if isinstance(sessions, list) else sessions["sessions"])
                 if s["id"] == SID)
    assert title == "✕ title removed by deletion del-v"
    export = tmp_path / "out.jsonl"
    assert _run("export", str(store), "-o", str(export))[0] == 0
    files = sorted(tmp_path.glob("n.db*")) + [export]
    left = [(name, p.name) for p in files for name, form in _spellings() if form in p.read_bytes()]
    assert left == [], f"spellings still on disk: {left[:5]}"
    assert _run("verify", str(store))[0] == 0


def _state_key(records: list[dict[str, Any]]) -> None:
    records.insert(2, {"type": "state", "session": SID, "key": f"contact.{EMAIL.lower()}", "kind": "decision",
                       "value": "call back", "writer": "user", "sources": ["evt:1"], "version": 1})


def _file_name(records: list[dict[str, Any]]) -> None:
    records.insert(2, {"type": "material", "session": SID, "id": f"file:/home/u/{KEY}.txt", "source_event": 2,
                       "content": "notes", "disclosure_scope": "task", "media_type": "text/plain",
                       "retrieved_at": AT})


def _action_id(records: list[dict[str, Any]]) -> None:
    records.insert(2, {"type": "action", "session": SID, "id": f"call-{PHONE}", "intent": "phone back",
                       "status": "succeeded"})


NAMES = {"a state key": (_state_key, "state key"), "a file (material) name": (_file_name, "material id"),
         "an action id": (_action_id, "action id")}


@pytest.mark.parametrize("case", list(NAMES))
def test_a_name_others_refer_to_makes_delete_refuse_and_change_nothing(tmp_path: Path, case: str) -> None:
    add, what = NAMES[case]
    records, _copies, _ = _records()
    add(records)
    store = _import(tmp_path, records)
    kept = json.loads(_run("deletion", str(store), "del-v", "--json")[1])["kept"]
    assert any(k["what"] == what for k in kept), kept
    before = {p.name: p.read_bytes() for p in tmp_path.glob("n.db*")}
    code, out = _run("delete", str(store), "del-v", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["refusals"][0]["code"] == "copy_kept", doc
    assert what in doc["refusals"][0]["message"] and "nothing was deleted" in doc["refusals"][0]["message"]
    assert {p.name: p.read_bytes() for p in tmp_path.glob("n.db*")} == before
    text = _run("deletion", str(store), "del-v")[1]
    assert "cannot be removed" in text and "copy_kept" in text


def test_a_reviewer_named_with_the_secret_is_a_ledger_copy_delete_refuses(tmp_path: Path) -> None:
    records, _copies, _ = _records()
    records.insert(2, {"type": "state", "session": SID, "key": "decision.call", "kind": "decision",
                       "value": "call back", "writer": "user", "sources": ["evt:1"], "version": 1})
    store = _import(tmp_path, records)
    assert _run("correct", str(store), "--session", SID, "--key", "decision.call", "--value", "mail instead",
                "--reason", "asked", "--reviewer", EMAIL)[0] == 0
    code, out = _run("delete", str(store), "del-v", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["refusals"][0]["code"] == "copy_kept"
    assert any(k["where"] == "ledger" and "actor" in k["why"] for k in doc["kept"]), doc["kept"]
