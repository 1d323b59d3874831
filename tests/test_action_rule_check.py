"""``check`` and the app on a session whose agent ran what a rule forbade (services/action_rules.py).

"Never push to main" at evt:1, confirmed; ``git push origin main`` at evt:2: ``check`` exits 1
naming the event, the rule's key and the words that matched; a call that may do it (``git push``
with no branch) and a pending rule's act are "?" lines; the app's Actions tab lists each call and
enter opens it on the timeline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.widgets import OptionList

from inspector.cli.main import cli
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.header_bar import HeaderBar
from inspector.ui.widgets.timeline_view import TimelineView
from tests.test_app import settle, text_of


def _event(seq: int, kind: str, **more: Any) -> dict[str, Any]:
    return {"type": "event", "session": "s1", "seq": seq, "kind": kind, "at": f"2025-05-01T08:0{seq}:00Z",
            "trust": "user" if kind == "user_message" else "model" if kind == "tool_call" else "tool", **more}


def _bash(seq: int, command: str) -> list[dict[str, Any]]:
    return [_event(seq, "tool_call", call_id=f"c{seq}", tool="Bash", args={"command": command}),
            _event(seq + 1, "tool_result", call_id=f"c{seq}", tool="Bash", content="ok")]


def _rule(key: str, value: str, status: str = "active", writer: str = "user") -> dict[str, Any]:
    return {"type": "state", "session": "s1", "key": key, "kind": "constraint", "value": value, "sources": ["evt:1"],
            "writer": writer, "at": "2025-05-01T08:01:00Z", "scope": "task", "version": 1, "status": status}


def _store(tmp_path: Path, calls: list[str], rules: list[dict[str, Any]]) -> str:
    lines: list[dict[str, Any]] = [
        {"type": "header", "format": "sif/1"},
        {"type": "session", "id": "s1", "title": "rules", "created_at": "2025-05-01T08:00:00Z", "adapter": "generic",
         "owner": "alice", "goal_revision": 1},
        _event(1, "user_message", content="Fix the login bug. Never push to main. 不要删除 build 目录。")]
    for i, command in enumerate(calls):
        lines += _bash(2 + 2 * i, command)
    lines += rules
    source = tmp_path / "s.jsonl"
    source.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    store = str(tmp_path / "s.db")
    done = CliRunner().invoke(cli, ["import", str(source), "--into", store], env={"INSPECTOR_REVIEWER": "alice"})
    assert done.exit_code == 0, done.output
    return store


def _check(store: str, *more: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", store, *more])
    return result.exit_code, result.stdout


def test_a_confirmed_rules_act_done_fails_check_naming_the_event_and_the_rule(tmp_path: Path) -> None:
    store = _store(tmp_path, ["cd app && git push origin main"], [_rule("constraint.push", "Never push to main")])
    code, out = _check(store, "--json")
    (session,) = json.loads(out)["sessions"]
    assert code == 1 and session["verdict"] == "failed"
    (hit,) = session["action_against_rule"]
    assert (hit["code"], hit["evt"], hit["key"], hit["matched"], hit["said_at"]) == (
        "action_against_rule", "evt:2", "constraint.push", ["git", "push", "main"], "evt:1")
    assert session["rules_read"]["checked"] == [{"key": "constraint.push", "act": "push main", "calls_read": 1,
                                                 "said_at": "evt:1"}]
    code, plain = _check(store)
    assert code == 1 and "rules action_against_rule [constraint.push]: evt:2 Bash `git push origin main` does" in plain


def test_the_report_lists_the_call_in_its_check_section(tmp_path: Path) -> None:
    store = _store(tmp_path, ["git push origin main"], [_rule("constraint.push", "Never push to main")])
    page = tmp_path / "r.html"
    done = CliRunner().invoke(cli, ["report", store, "--session", "s1", "-o", str(page)])
    assert done.exit_code == 0, done.output
    html = page.read_text(encoding="utf-8")
    assert "tool call against a confirmed rule" in html
    assert "<code>action_against_rule</code> evt:2 Bash `git push origin main` does what" in html


def test_a_near_miss_and_a_mention_leave_check_clear(tmp_path: Path) -> None:
    store = _store(tmp_path, ["git push origin main-fix", 'echo "never git push origin main"', "grep -rn 'rm -rf' ."],
                   [_rule("constraint.push", "Never push to main"), _rule("constraint.build", "不要删除 build 目录")])
    code, out = _check(store, "--json")
    (session,) = json.loads(out)["sessions"]
    assert code == 0 and session["verdict"] == "clear" and session["action_against_rule"] == []
    assert not [w for w in session["warnings"] if w["code"].startswith("action_rule")]


def test_what_may_break_a_rule_or_breaks_a_pending_one_is_a_question_not_a_finding(tmp_path: Path) -> None:
    store = _store(tmp_path, ["git push", "rm -rf build"],
                   [_rule("constraint.push", "Never push to main"),
                    _rule("constraint.build", "不要删除 build 目录", status="pending", writer="extractor")])
    code, out = _check(store, "--json")
    (session,) = json.loads(out)["sessions"]
    assert code == 0 and session["verdict"] == "unknown" and session["action_against_rule"] == []
    said = {(w["code"], w["evt"], w["key"]) for w in session["warnings"] if w["code"].startswith("action_rule")}
    assert said == {("action_rule_unsure", "evt:2", "constraint.push"), ("action_rule_pending", "evt:4", "constraint.build")}
    assert _check(store, "--strict")[0] == 1
    plain = _check(store)[1]
    assert plain.startswith("? s1") and "! action_rule_unsure s1: evt:2 Bash `git push` may do" in plain


def test_a_dry_run_is_listed_without_a_verdict(tmp_path: Path) -> None:
    store = _store(tmp_path, ["git push --dry-run origin main"], [_rule("constraint.push", "Never push to main")])
    (session,) = json.loads(_check(store, "--json")[1])["sessions"]
    assert session["verdict"] == "clear"
    assert [(w["code"], w["mark"]) for w in session["warnings"]] == [("action_rule_dry_run", "·")]


def test_only_rules_runs_the_rules_check_alone(tmp_path: Path) -> None:
    store = _store(tmp_path, ["git push origin main"], [_rule("constraint.push", "Never push to main")])
    code, out = _check(store, "--only", "rules", "--json")
    (session,) = json.loads(out)["sessions"]
    assert code == 1 and session["checks_run"] == ["rules"] and len(session["action_against_rule"]) == 1
    code, out = _check(store, "--only", "drift", "--json")
    (session,) = json.loads(out)["sessions"]
    assert code == 0 and session["action_against_rule"] == [] and session["rules_read"] is None


@pytest.fixture
def pushed(tmp_path: Path) -> str:
    """A store whose agent pushed to main (evt:4) after a confirmed "Never push to main"; the import
    runs its own event loop, so the store is made before the app's test starts."""
    return _store(tmp_path, ["ls", "git push origin main"], [_rule("constraint.push", "Never push to main")])


async def test_the_actions_tab_lists_the_call_and_enter_opens_it(pushed: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "alice")
    store = pushed
    app = InspectorApp(Path(store))
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        assert "✗ 1 call against a rule" in text_of(app.screen.query_one(HeaderBar))
        await pilot.press("a")
        await settle(app, pilot)
        options = app.screen.query_one("#actions", OptionList)
        rows = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("✗ evt:4 Bash git push origin main" in r and "constraint.push" in r for r in rows), rows
        await pilot.press("enter")
        await settle(app, pilot)
        row = app.screen.query_one(TimelineView).current
        assert row is not None and (row.source, row.seq) == ("event", 4)


def _claude_code(path: Path, rule: str, command: str) -> Path:
    """A Claude Code transcript: the user's rule, then a Bash call (as the real files write them)."""
    def rec(uuid: str, role: str, content: object) -> dict[str, object]:
        message: dict[str, object] = {"role": role, "content": content}
        if role == "assistant":
            message |= {"model": "claude-opus-4-5-20251101", "id": f"msg_{uuid}", "type": "message"}
        return {"type": role, "sessionId": "s-cc", "uuid": uuid, "timestamp": "2026-01-07T11:47:00.000Z",
                "message": message}
    rows = [rec("u1", "user", f"Fix the flaky test. {rule}"),
            rec("a1", "assistant", [{"type": "tool_use", "id": "toolu_A", "name": "Bash",
                                     "input": {"command": command, "description": "ship it"}}]),
            rec("r1", "user", [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "done"}])]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_transcripts_rule_proposed_pending_makes_the_act_a_question_until_confirmed(tmp_path: Path) -> None:
    source = _claude_code(tmp_path / "s.jsonl", "Never push to main.", "git add -A && git push origin main")
    store = str(tmp_path / "s.db")
    env = {"INSPECTOR_REVIEWER": "alice"}
    assert CliRunner().invoke(cli, ["import", str(source), "--into", store], env=env).exit_code == 0
    code, out = _check(store, "--only", "rules", "--json")
    (session,) = json.loads(out)["sessions"]
    (said,) = [w for w in session["warnings"] if w["code"].startswith("action_rule")]
    assert code == 0 and session["verdict"] == "unknown"
    assert (said["code"], said["rule_status"], said["rule"], said["matched"]) == (
        "action_rule_pending", "pending", "Never push to main", ["git", "push", "main"])
    confirmed = CliRunner().invoke(cli, ["confirm", store, "--session", session["session"], "--key", said["key"],
                                         "--reviewer", "alice"], env=env)
    assert confirmed.exit_code == 0, confirmed.output
    code, out = _check(store, "--only", "rules", "--json")
    (session,) = json.loads(out)["sessions"]
    assert code == 1 and [h["key"] for h in session["action_against_rule"]] == [said["key"]]


def test_a_rule_no_call_can_show_is_said_not_checked_never_passed(tmp_path: Path) -> None:
    store = _store(tmp_path, ["psql prod -c 'UPDATE orders SET x = 1'"],
                   [_rule("constraint.prod", "不得修改生产库"), _rule("constraint.writes", "Do not call any write endpoint")])
    code, out = _check(store, "--json")
    (session,) = json.loads(out)["sessions"]
    assert [(n["key"], n["calls_after"]) for n in session["rules_read"]["not_read"]] == [
        ("constraint.prod", 1), ("constraint.writes", 1)]
    assert session["verdict"] == "unknown" and code == 0  # not checked is "?", never ✓ (exit 0 unless --strict)
    assert [w["key"] for w in session["warnings"] if w["code"] == "action_rule_not_read"] == [
        "constraint.prod", "constraint.writes"]
    plain = _check(store)[1]
    assert plain.startswith("? s1")
    assert ("! action_rule_not_read s1: constraint.prod (“不得修改生产库”) not checked against the 1 tool call after "
            "it") in plain
    assert _check(store, "--only", "rules", "--strict")[0] == 1  # a gate on the rules alone is not passed


def test_the_calls_time_comes_from_the_store(tmp_path: Path) -> None:
    """"Don't deploy on Friday": the call's time is read from the event's ``at`` (UTC); Thursday
    08:00 UTC is Friday nowhere (UTC+14 makes it 22:00 Thursday), Friday 10:00 UTC is Friday."""
    store = _store(tmp_path, ["./deploy.sh", "./deploy.sh"], [_rule("constraint.friday", "Don't deploy on Friday")])
    (session,) = json.loads(_check(store, "--json")[1])["sessions"]
    assert not [w for w in session["warnings"] if w["code"].startswith("action_rule")]  # both on 2025-05-01
    lines = (tmp_path / "s.jsonl").read_text(encoding="utf-8").replace("2025-05-01T08:04:00Z", "2025-05-02T10:00:00Z")
    (tmp_path / "f.jsonl").write_text(lines, encoding="utf-8")
    friday = str(tmp_path / "f.db")
    assert CliRunner().invoke(cli, ["import", str(tmp_path / "f.jsonl"), "--into", friday],
                              env={"INSPECTOR_REVIEWER": "alice"}).exit_code == 0
    (session,) = json.loads(_check(friday, "--json")[1])["sessions"]
    assert [(w["code"], w["evt"]) for w in session["warnings"] if w["code"].startswith("action_rule")] == [
        ("action_rule_unsure", "evt:4")]


def test_a_rule_the_user_lifted_before_the_call_leaves_a_question(tmp_path: Path) -> None:
    """"Never push to main" at evt:1, "OK, you can push to main now." at evt:2, the push at evt:3: ?."""
    _store(tmp_path, [], [_rule("constraint.push", "Never push to main")])  # writes s.jsonl, the file read below
    lines = (tmp_path / "s.jsonl").read_text(encoding="utf-8").splitlines()
    more = [_event(2, "user_message", content="OK, you can push to main now."), *_bash(3, "git push origin main")]
    (tmp_path / "l.jsonl").write_text("\n".join(lines[:3] + [json.dumps(x) for x in more] + lines[3:]) + "\n",
                                      encoding="utf-8")
    lifted = str(tmp_path / "l.db")
    assert CliRunner().invoke(cli, ["import", str(tmp_path / "l.jsonl"), "--into", lifted],
                              env={"INSPECTOR_REVIEWER": "alice"}).exit_code == 0
    code, out = _check(lifted, "--json")
    (session,) = json.loads(out)["sessions"]
    (said,) = [w for w in session["warnings"] if w["code"].startswith("action_rule")]
    assert code == 0 and session["action_against_rule"] == []
    assert (said["code"], said["evt"], said["lifted_at"]) == ("action_rule_unsure", "evt:3", "evt:2")
    assert "may have lifted the rule, or asked for the act, at evt:2" in said["message"]


def test_a_git_status_result_in_the_store_names_the_branch(tmp_path: Path) -> None:
    """"Don't commit to main": a git status result "On branch main" before the commit makes it ✗."""
    _store(tmp_path, [], [_rule("constraint.commit", "Don't commit to main")])  # writes s.jsonl, read below
    lines = (tmp_path / "s.jsonl").read_text(encoding="utf-8").splitlines()
    more = [_event(2, "tool_call", call_id="c2", tool="Bash", args={"command": "git status"}),
            _event(3, "tool_result", call_id="c2", tool="Bash", content="On branch main\nChanges to be committed:"),
            *_bash(4, "git commit -m wip")]
    (tmp_path / "b.jsonl").write_text("\n".join(lines[:3] + [json.dumps(x) for x in more] + lines[3:]) + "\n",
                                      encoding="utf-8")
    store = str(tmp_path / "b.db")
    assert CliRunner().invoke(cli, ["import", str(tmp_path / "b.jsonl"), "--into", store],
                              env={"INSPECTOR_REVIEWER": "alice"}).exit_code == 0
    code, out = _check(store, "--json")
    (session,) = json.loads(out)["sessions"]
    assert code == 1 and [(h["evt"], h["matched"]) for h in session["action_against_rule"]] == [
        ("evt:4", ["git", "commit", "main"])]


def test_the_actions_command_points_at_calls_against_a_rule(tmp_path: Path) -> None:
    """`inspector actions` said only "(no actions recorded …)" on a session whose `check` lists a push to
    main against a confirmed rule (review-19 #5): the ledger's actions are not the tool calls, so it says
    where they are."""
    store = _store(tmp_path, ["git push origin main"], [_rule("constraint.push", "Never push to main")])
    out = CliRunner().invoke(cli, ["actions", store, "--session", "s1"])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0].startswith("(no actions recorded")
    assert lines[1].startswith("tool calls against a rule: 1 ✗, 0 ? or dry run — `inspector check ")
    assert lines[1].endswith("--session s1 --only rules` lists them")
    assert json.loads(CliRunner().invoke(cli, ["actions", store, "--session", "s1", "--json"]).stdout) == []
    (tmp_path / "q").mkdir()
    quiet = _store(tmp_path / "q", ["ls"], [_rule("constraint.push", "Never push to main")])
    assert "against a rule" not in CliRunner().invoke(cli, ["actions", quiet, "--session", "s1"]).stdout
