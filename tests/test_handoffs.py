"""Handoff checks: each refusal code, a complete handoff accepted once, verify afterwards."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.canonical import content_hash
from inspector.services import handoffs
from inspector.services.channels import event_detail
from inspector.services.importing import import_file
from inspector.services.sessions import get_session
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.backend_master import BackendMaster, master_fixture
from tests.conftest import session_record, write_sif

TOOL = content_hash(b"read(path)")
EXACT = {"goal.main": "migrate orders", "constraint.window": "only 02:00-04:00 UTC"}
MATERIAL = {"goal": "migrate orders", "exact_fields": EXACT, "evidence_refs": ["res:sql", "evt:1"], "decisions": [],
            "open_actions": ["a2"], "unknowns": ["a1"], "open_points": [], "limits": [], "corrections": []}


def handoff(id_: str, **more: object) -> dict:
    return {"type": "handoff", "session": "s1", "id": id_, "to_session": f"new-{id_}", "goal_revision": 1,
            "context_version": 1, "material": MATERIAL, "tool_mapping": {"read": TOOL}, **more}


BASE = [
    session_record("s1", owner="maria"),
    {"type": "tool_def", "session": "s1", "name": "read", "definition_hash": TOOL},
    {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "content": "migrate orders", "trust": "user"},
    {"type": "material", "session": "s1", "id": "res:sql", "content": "CREATE INDEX …", "disclosure_scope": "team"},
    {"type": "material", "session": "s1", "id": "res:secret", "content": "pw", "disclosure_scope": "private"},
    {"type": "action", "session": "s1", "id": "a1", "status": "unknown"},
    {"type": "action", "session": "s1", "id": "a2", "status": "planned"},
    {"type": "state", "session": "s1", "key": "goal.main", "kind": "goal", "value": EXACT["goal.main"]},
    {"type": "state", "session": "s1", "key": "constraint.window", "kind": "constraint",
     "value": EXACT["constraint.window"]},
    handoff("good"),
    handoff("writeoff", material={**MATERIAL, "unknowns": []}),
    handoff("goal", goal_revision=0),
    handoff("fields", material={**MATERIAL, "exact_fields": {**EXACT, "constraint.window": "only 2-4 UTC"}}),
    handoff("tools", tool_mapping={"read": content_hash(b"read(path, force)")}),
    handoff("evidence", material={**MATERIAL, "evidence_refs": ["res:gone", "res:secret", "evt:99"]}),
    handoff("disguise", material={**MATERIAL, "decisions": [{"role": "assistant", "content": "done"}],
                                   "thinking": {"type": "thinking", "signature": "EqQB…"}}),
    handoff("missing", material={**MATERIAL, "exact_fields": {**EXACT, "acceptance.tests": "green"}}),
]


async def _build(target: Path | str, folder: Path) -> None:
    await import_file(write_sif(folder / "h.jsonl", BASE), target, actor="t")


master = master_fixture(_build)  # built once per backend; each test gets a copy of its own


@pytest.fixture
def store(master: BackendMaster, backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    yield from master.store(backend, request, tmp_path)


@pytest.mark.parametrize(
    ("handoff_id", "codes"),
    [("good", []), ("writeoff", ["unknown_written_off"]), ("goal", ["stale_goal"]),
     ("fields", ["exact_fields_changed"]), ("tools", ["tool_definition_changed"]),
     ("evidence", ["evidence_unreadable"]), ("disguise", ["disguised_material"]),
     ("missing", ["record_missing", "exact_fields_changed"])],
)
async def test_each_refusal(store: Path, handoff_id: str, codes: list[str]) -> None:
    async with await open_store(store) as opened:
        result = await handoffs.check(opened, handoff_id)
    assert [r.code for r in result.refusals] == codes
    assert result.acceptable is (not codes)
    assert len(result.checks) == 12  # every check is listed, passed or not


async def test_unreadable_evidence_names_each_reason(store: Path) -> None:
    async with await open_store(store) as opened:
        message = (await handoffs.check(opened, "evidence")).refusals[0].message
    assert "res:gone: does not resolve" in message and "res:secret: is disclosed to scope 'private'" in message
    assert "evt:99: no such event" in message


async def test_open_actions_block_a_handoff(tmp_path: Path) -> None:
    records = [*BASE[:9], {"type": "event", "session": "s1", "seq": 2, "kind": "tool_call", "call_id": "c9"},
               handoff("good")]
    path = tmp_path / "o.db"
    await import_file(write_sif(tmp_path / "o.jsonl", records), path, actor="t")
    async with await open_store(path) as opened:
        assert [r.code for r in (await handoffs.check(opened, "good")).refusals] == ["actions_open"]


async def test_accepting_creates_the_new_session_once(store: Path) -> None:
    async with await open_store(store) as opened:
        decision = await handoffs.accept(opened, "good", actor="maria")
        assert decision.new_session == "new-good"
        info = await get_session(opened, "new-good")
        assert (info.events, info.context_version, info.goal_revision) == (1, 1, 1)
        first = await event_detail(opened, "new-good", 1)
        assert first["kind"] == "user_message" and first["trust"] == "reviewer"
        assert first["origin"] == {"handoff": "good", "from_session": "s1"} and "migrate orders" in first["content"]
        statuses = dict(await opened.db.execute_fetchall("SELECT id, status FROM actions WHERE session = 'new-good'"))
        assert statuses == {"a1": "unknown", "a2": "planned"}  # the unknown effect stays unknown
        again = await handoffs.accept(opened, "good", actor="maria")
        assert again.new_session is None and [r.code for r in again.check.refusals] == ["already_decided"]
        assert (await verify_store(opened)).ok


def test_cli(store: Path) -> None:
    run = CliRunner().invoke
    out = run(cli, ["handoff", str(store), "tools", "--json"])
    assert out.exit_code == 1 and json.loads(out.stdout)["acceptable"] is False
    out = run(cli, ["accept-handoff", str(store), "good", "--reviewer", "maria", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout) == {"handoff": "good", "status": "accepted",
                                                             "new_session": "new-good"}
    assert run(cli, ["accept-handoff", str(store), "good", "--reviewer", "maria"]).exit_code == 1
    assert run(cli, ["handoff", str(store), "nope"]).exit_code == 3
