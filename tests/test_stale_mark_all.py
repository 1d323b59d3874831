"""A stale proposal (pending behind the owner's correction) is left out of "mark all" and
``confirm --all-pending``, and ``facts`` says it is one (flow-19).

``ctrl+a`` marked it with the rest, so ``y`` put a record no one can confirm into the batch (its
dialog refused it, stale-and-prefill #1); ``facts`` listed the extractor's value as ``[active]``
— the key's newest status, which was the owner's other value — with no word of the stale version.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import corrections
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.state_channel import StateChannel
from tests.conftest import event_record, session_record, write_sif
from tests.pending_fixture import OWNER, S, pending_store
from tests.test_app import settle

RULE = "Never delete the backups folder. Use PostgreSQL 16 for the new service."


@pytest.fixture
def proposed_then_corrected(tmp_path: Path) -> Path:
    """The extractor's goal.main and constraint pending; the owner corrects goal.main (v2 active)."""
    store = tmp_path / "st.db"
    source = write_sif(tmp_path / "st.jsonl", [session_record("s1", owner="alice"), event_record(1, content=RULE)])
    run = CliRunner().invoke
    assert run(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    assert run(cli, ["facts", str(store), "--session", "s1", "--write", "--reviewer", "alice"]).exit_code == 0
    done = run(cli, ["correct", str(store), "--session", "s1", "--key", "goal.main", "--value", "Use PostgreSQL 16",
                     "--reason", "the goal is the service", "--reviewer", "alice"])
    assert done.exit_code == 0 and "goal.main v2 is active" in done.output, done.output
    return store


def test_facts_says_the_stale_proposal_in_plain_and_json(proposed_then_corrected: Path) -> None:
    store = str(proposed_then_corrected)
    plain = CliRunner().invoke(cli, ["facts", store, "--session", "s1"])
    (goal,) = [line for line in plain.output.splitlines() if line.startswith("goal ")]
    assert "[pending]" in goal and "[active]" not in goal, goal  # not the owner's active v2's status
    assert "◌ stale proposal: reject only — v1 was proposed before v2 became active" in goal, goal
    assert f"reject each with `inspector confirm {store} --session s1 --key goal.main --reject`" in plain.output
    listed = {f["key"]: f for f in json.loads(CliRunner().invoke(cli, ["facts", store, "--session", "s1",
                                                                      "--json"]).stdout)}
    assert listed["goal.main"]["status"] == "pending"
    assert listed["goal.main"]["stale"]["version"] == 1 and listed["goal.main"]["stale"]["behind"] == 2
    assert "stale" not in listed["constraint.never-delete-the-backups-folder.4b3ff6"]


def test_confirm_all_pending_leaves_the_stale_proposal_and_says_how_to_decide_it(proposed_then_corrected: Path) -> None:
    store = str(proposed_then_corrected)
    done = CliRunner().invoke(cli, ["confirm", store, "--session", "s1", "--all-pending", "--reviewer", "alice",
                                    "--json"])
    doc = json.loads(done.stdout)
    assert done.exit_code == 1  # as every --all-pending refusal: something was left pending
    assert [d["key"] for d in doc["decided"]] == ["constraint.never-delete-the-backups-folder.4b3ff6"]
    (refused,) = doc["refusals"]
    assert (refused["key"], refused["version"], refused["code"]) == ("goal.main", 1, "stale_pending")
    assert "--all-pending left it pending" in refused["message"] and "--key goal.main --reject" in refused["message"]
    history = json.loads(CliRunner().invoke(cli, ["history", store, "--session", "s1", "--key", "goal.main",
                                                  "--json"]).stdout)
    assert [(v["version"], v["status"]) for v in history] == [(1, "pending"), (2, "active")]
    rejected = CliRunner().invoke(cli, ["confirm", store, "--session", "s1", "--all-pending", "--reject",
                                        "--reviewer", "alice", "--json"])
    assert rejected.exit_code == 0 and json.loads(rejected.stdout)["decided"][0]["key"] == "goal.main"


async def test_ctrl_a_leaves_stale_proposals_unmarked_and_says_so(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = Path(await pending_store(tmp_path))
    async with await open_store(path) as opened:
        await corrections.correct(opened, S, "decision.db", "use streaming and a cursor", reason="owner's",
                                  actor=OWNER)  # decision.db v1 stays pending, stale behind v2
    monkeypatch.setenv("INSPECTOR_REVIEWER", OWNER)
    app = InspectorApp(path, session=S)
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        notices: list[str] = []
        state = app.screen.query_one(StateChannel)
        monkeypatch.setattr(state, "notify", lambda message, **_: notices.append(str(message)))
        await pilot.press("1", "ctrl+a")
        pending = {i for i, r in state.items.items() if r.status == "pending"}
        assert "decision.db@1" in pending and state.marked == pending - {"decision.db@1"}
        assert any("left out 1 stale proposal (decision.db v1): reject only" in n for n in notices), notices
        await pilot.press("ctrl+a")  # all it marks were marked: clears them, as before
        assert state.marked == frozenset()
