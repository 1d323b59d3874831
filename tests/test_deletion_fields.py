"""A secret held by a record's free-text field that is neither its content nor its name: a
material's or stub's source version, scope or media type, a state record's scope, an
action's result reference, another request's requester, the session's owner.

Before, `delete` answered "done" while such a field kept the secret in the store file and in
every export: the scan read contents and names, and these columns are neither. They are
record fields bound by the record's digest, so they cannot be rewritten in place: `delete`
must refuse (``copy_kept``) naming the field, and change nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

SECRET = "sk-live-Q7x9Zt2Lm4Np8Rv6"
AT = "2025-05-01T08:00:00Z"
SID = "s-fields"


def _material(**more: Any) -> dict[str, Any]:
    return {"type": "material", "session": SID, "id": "m1", "source_event": 2, "content": "body",
            "disclosure_scope": "task", "media_type": "text/plain", "retrieved_at": AT, **more}


PLACES: dict[str, tuple[list[dict[str, Any]], str]] = {
    "material source_version": ([_material(source_version=f"v:{SECRET}")], "materials.source_version"),
    "material disclosure_scope": ([_material(disclosure_scope=f"team-{SECRET}")], "materials.disclosure_scope"),
    "material media_type": ([_material(media_type=f"text/x-{SECRET}")], "materials.media_type"),
    "stub source_version": ([_material(), {"type": "stub", "session": SID, "id": "st1", "material": "m1",
                                           "read_slice": [0, 4], "source_version": f"v:{SECRET}",
                                           "disclosure_scope": "task", "outline": "o"}], "stubs.source_version"),
    "state scope": ([{"type": "state", "session": SID, "key": "constraint.k", "kind": "constraint", "value": "v",
                      "writer": "user", "sources": ["evt:2"], "version": 1, "scope": f"repo {SECRET}"}],
                    "state_records.scope"),
    "action result_ref": ([{"type": "action", "session": SID, "id": "a1", "intent": "deploy", "status": "succeeded",
                            "result_ref": f"log:{SECRET}"}], "actions.result_ref"),
    "another request's requester": ([{"type": "deletion_request", "session": SID, "id": "del-0", "targets": ["evt:2"],
                                      "requested_by": f"user {SECRET}"}], "deletion_requests.requested_by"),
}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"INSPECTOR_REVIEWER": "rev"})
    return result.exit_code, result.stdout


@pytest.mark.parametrize("place", list(PLACES))
def test_delete_never_says_done_while_a_field_keeps_the_secret(tmp_path: Path, place: str) -> None:
    extra, field = PLACES[place]
    records = [
        {"type": "session", "id": SID, "title": "t", "owner": "olga", "created_at": AT},
        {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user",
         "content": f"my key is {SECRET}", "at": AT},
        {"type": "event", "session": SID, "seq": 2, "kind": "user_message", "trust": "user", "content": "ok", "at": AT},
        *extra,
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "leaked key"},
    ]
    store = tmp_path / "f.db"
    assert _run("import", str(write_sif(tmp_path / "f.jsonl", records)), "--into", str(store))[0] == 0
    listed = json.loads(_run("deletion", str(store), "del-1", "--session", SID, "--json")[1])
    assert any(k["where"] == field for k in listed["kept"]), listed["kept"]
    before = {p.name: p.read_bytes() for p in tmp_path.glob("f.db*")}
    code, out = _run("delete", str(store), "del-1", "--session", SID, "--json")
    doc = json.loads(out)
    assert code == 1 and doc["refusals"][0]["code"] == "copy_kept", doc
    assert field.split(".")[1].replace("_", " ") in doc["refusals"][0]["message"] or field in json.dumps(doc["kept"])
    assert {p.name: p.read_bytes() for p in tmp_path.glob("f.db*")} == before  # nothing deleted


def test_a_copy_in_another_session_of_the_store_is_named_not_passed_over(tmp_path: Path) -> None:
    """A request belongs to one session and removes only that session's copies; another session
    of the same store file holding the value was passed over in silence ("deleted 4 copies")."""
    records = [
        {"type": "session", "id": SID, "title": "t", "owner": "olga", "created_at": AT},
        {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user",
         "content": f"my key is {SECRET}", "at": AT},
        {"type": "session", "id": "s-other", "title": "o", "owner": "olga", "created_at": AT},
        {"type": "event", "session": "s-other", "seq": 1, "kind": "user_message", "trust": "user", "content": "hi",
         "at": AT},
        {"type": "event", "session": "s-other", "seq": 2, "kind": "tool_result", "trust": "tool", "call_id": "c",
         "tool": "env", "content": f"KEY={SECRET}", "at": AT},
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"], "requested_by": "user"},
    ]
    store = tmp_path / "o.db"
    assert _run("import", str(write_sif(tmp_path / "o.jsonl", records)), "--into", str(store))[0] == 0
    listed = json.loads(_run("deletion", str(store), "del-1", "--json")[1])
    assert any("s-other" in w and "evt:2" in w for w in listed["warnings"]), listed["warnings"]
    code, text = _run("delete", str(store), "del-1")
    assert code == 0 and "s-other" in text and "evt:2" in text, text
    assert SECRET.encode() not in json.dumps(listed).encode()  # the warning names where, never the value
