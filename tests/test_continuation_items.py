"""Provider continuation items guard every provider, not only DeepSeek (DESIGN §2): a session
holding signatures, redacted thinking or encrypted reasoning is never rewritten in place;
every DeepSeek thinking-with-tools assistant turn needs its reasoning; reasoning on a session
whose thinking is off is reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import session_record, write_sif


def _event(seq: int, kind: str, **more: Any) -> dict[str, Any]:
    return {"type": "event", "session": "s1", "seq": seq, "kind": kind, "content": f"turn {seq}",
            "trust": "user" if kind == "user_message" else "model", **more}


def _store(tmp_path: Path, adapter: str, events: list[dict[str, Any]], **session: Any) -> tuple[Path, dict]:
    records = [session_record("s1", adapter=adapter, goal_revision=1, **session), *events,
               {"type": "candidate", "session": "s1", "id": "cand", "base_version": 1, "goal_revision": 1,
                "exact_fields": {}, "open_actions": [], "unknowns": [], "summary": "short", "sources": ["evt:1"]}]
    store = tmp_path / "c.db"
    out = CliRunner().invoke(cli, ["import", str(write_sif(tmp_path / "c.jsonl", records)), "--into", str(store),
                                   "--json"])
    assert out.exit_code == 0, out.output
    return store, json.loads(out.stdout)


def _validate(store: Path) -> dict:
    return json.loads(CliRunner().invoke(cli, ["validate", str(store), "cand", "--json"]).stdout)


def test_anthropic_signatures_and_redacted_thinking_forbid_a_rewrite(tmp_path: Path) -> None:
    store, _ = _store(tmp_path, "anthropic", [
        _event(1, "user_message"),
        _event(2, "assistant_message", reasoning_content="thinking…",
               continuation=[{"kind": "signature", "data": "EqQBCkgIAR…"}]),
        _event(3, "assistant_message", continuation=[{"kind": "redacted_thinking", "data": "opaque"}]),
        _event(4, "assistant_message", continuation=[{"kind": "signature", "data": "EqQBCkgIAg…"}]),
    ])
    refusals = _validate(store)["refusals"]
    assert [r["code"] for r in refusals] == ["rewrite_not_allowed"]
    message = refusals[0]["message"]
    assert "2 Anthropic thinking signatures (evt:2, evt:4)" in message
    assert "1 Anthropic redacted thinking block (evt:3)" in message and "handoff" in message


def test_openai_encrypted_reasoning_forbids_a_rewrite(tmp_path: Path) -> None:
    store, _ = _store(tmp_path, "openai-chat", [
        _event(1, "user_message"),
        _event(2, "assistant_message", continuation=[{"kind": "encrypted_content", "data": "gAAAA…"}]),
    ])
    message = _validate(store)["refusals"][0]["message"]
    assert "1 OpenAI encrypted reasoning item (evt:2)" in message


def test_a_session_without_continuation_items_may_be_rewritten(tmp_path: Path) -> None:
    store, _ = _store(tmp_path, "anthropic", [_event(1, "user_message"), _event(2, "assistant_message")])
    assert _validate(store)["structure_verified"] is True


def test_every_deepseek_assistant_turn_needs_its_reasoning(tmp_path: Path) -> None:
    store, report = _store(tmp_path, "deepseek-thinking-tools", [
        _event(1, "user_message"),
        _event(2, "assistant_message", reasoning_content="r", tools_present=True),
        _event(3, "assistant_message"),  # a turn without a tool call, and without its reasoning
        _event(4, "user_message"),
        _event(5, "assistant_message", reasoning_content="r", tools_present=True),
    ])
    assert [(p["code"], p["seq"]) for p in report["problems"]] == [("reasoning_missing", 3)]
    checked = CliRunner().invoke(cli, ["check", str(store), "--json"])
    protocol = json.loads(checked.stdout)["sessions"][0]["protocol"]
    assert checked.exit_code == 1 and [(p["code"], p["seq"]) for p in protocol] == [("reasoning_missing", 3)]


def test_reasoning_on_a_session_whose_thinking_is_off(tmp_path: Path) -> None:
    store, report = _store(tmp_path, "anthropic", [
        _event(1, "user_message"),
        _event(2, "assistant_message", reasoning_content="I think…"),
        _event(3, "assistant_message"),
    ], thinking={"type": "disabled"})
    assert [(p["code"], p["seq"]) for p in report["problems"]] == [("reasoning_mode_mismatch", 2)]
    protocol = json.loads(CliRunner().invoke(cli, ["check", str(store), "--json"]).stdout)["sessions"][0]["protocol"]
    assert [(p["code"], p["seq"]) for p in protocol] == [("reasoning_mode_mismatch", 2)]
