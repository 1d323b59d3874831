"""verdict-real-five: real drifts that only got the faithful summary's "?" (docs/reviews/verdict-real-five.md).

Before: on the real transcripts a summary that invented "merged", "re-run and passed" or "deployed",
named a changed file in another folder, or flipped a choice the user stated in the range, got the
same "?" (or the same ✗) as its faithful twin: no protected fact and no rule read the drift.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.facts import extract
from inspector.domain.facts_user_stated import stated
from inspector.domain.logevents import LogEvent
from inspector.domain.said import Said
from inspector.domain.said_completion import completion_findings
from inspector.domain.said_output_numbers import ToolRun
from inspector.domain.said_stale_path import stale_path_findings
from tests import verdict_real_five_cases as five
from tests.verdict_real_four_cases import REAL, build, cases

ENV = {"INSPECTOR_REVIEWER": "owner"}
pytestmark = pytest.mark.skipif(not REAL.exists(), reason=f"{REAL} is missing")


def _run(*args: str) -> Any:
    result = CliRunner().invoke(cli, [*args, "--json"], env=ENV)
    return json.loads(result.output)


def _imported(tmp_path: Path, name: str) -> tuple[Path, str]:
    """The store and session of the labelled case ``name`` (verdict-real-four's or -five's)."""
    four = {c.name: c for c in cases()}
    built = build(four[name]) if name in four else five.build_five(next(f for f in five.cases() if f.case.name == name))
    tmp_path.mkdir(parents=True, exist_ok=True)
    source, store = tmp_path / built[0], tmp_path / "s.db"
    source.write_bytes(built[1])
    return store, _run("import", "--into", str(store), str(source))["sessions"][0]


def _findings(store: Path, session: str) -> list[dict[str, Any]]:
    return _run("drift", str(store), "--session", session)["findings"]


def _codes(store: Path, session: str) -> dict[str, str]:
    return {f["code"]: f["severity"] for f in _findings(store, session)}


def test_a_merge_of_the_pr_the_range_created_is_a_finding_and_a_pass_no_run_shows_is_a_question(tmp_path: Path) -> None:
    store, session = _imported(tmp_path / "merged", "manual-merged")
    merged = [f for f in _findings(store, session) if f["code"] == "completion_unshown" and f["severity"] == "finding"]
    assert [f["words"] for f in merged] == [["merged"]], merged
    assert "pull/85" in merged[0]["where"] and "created in the range" in merged[0]["message"]
    assert _run("check", str(store), "--session", session)["sessions"][0]["verdict"] == "failed"
    # The real summary: its "All tests passed" (runs before the file begins) is a "?", never ✓ nor ✗,
    # and its "Pushed to remote" is shown by the range's git push.
    store, session = _imported(tmp_path / "faithful", "manual-faithful")
    found = [f for f in _findings(store, session) if f["code"] == "completion_unshown"]
    assert found and {f["severity"] for f in found} == {"warning"}
    assert all("tests" in f["words"][0].lower() or "suite" in f["words"][0].lower() for f in found), found
    assert _run("check", str(store), "--session", session)["sessions"][0]["verdict"] == "unknown"


def test_an_invented_rerun_push_or_release_is_a_question_the_faithful_twin_has_not(tmp_path: Path) -> None:
    for name, words in (("release-rerun-invented", "was re-run"), ("release-pushed-invented", "pushed"),
                        ("version-released-zh", "已发布")):
        store, session = _imported(tmp_path / name, name)
        found = [f for f in _findings(store, session) if f["code"] == "completion_unshown"]
        assert [(f["words"], f["severity"]) for f in found] == [([words], "warning")], (name, found)
        assert _run("check", str(store), "--session", session)["sessions"][0]["verdict"] == "unknown"
    store, session = _imported(tmp_path / "release-faithful", "release-faithful")  # "has not been re-run yet"
    assert "completion_unshown" not in _codes(store, session)
    store, session = _imported(tmp_path / "pushed-zh", "manual-pushed-zh")  # 分支已推送: the git push shows it
    assert not [f for f in _findings(store, session) if f["code"] == "completion_unshown" and "推送" in f["where"]]


def _runs(*commands: tuple[int, str, str, bool]) -> tuple[ToolRun, ...]:
    return tuple(ToolRun(seq, cmd, out, bad) for seq, cmd, out, bad in commands)


def test_completion_claims_are_held_against_the_runs_in_range_only() -> None:
    merge = _runs((2, "gh pr merge 12 --squash", "✓ Squashed and merged pull request #12", False),
                  (5, "git status", "On branch main", False))
    assert completion_findings(1, Said.of("Merged PR #12 into main."), merge, (1, 3), False) == []
    assert [f.severity for f in completion_findings(1, Said.of("Merged PR #12 into main."), merge, (3, 9), False)] \
        == ["warning"]  # the merge lies before the range
    log = _runs((2, "git log --oneline", "6fd2848 Merge pull request #83 from x/y\nmerged earlier", False))
    assert [f.words for f in completion_findings(1, Said.of("Merged PR #85."), log, None, True)] == [("merged",)]
    assert completion_findings(1, Said.of("Merged PR #83."), log, None, True) == []  # the result says #83 merged
    failed = _runs((2, "git push origin main", "! [rejected] main -> main (fetch first)", True))
    assert len(completion_findings(1, Said.of("Pushed the fix to main."), failed, None, True)) == 1
    for hedged in ("The fix has not been pushed yet.", "Once deployed, check the logs.", "Should it be merged?",
                   "尚未部署。", "Nothing merged before the freeze."):
        assert completion_findings(1, Said.of(hedged), failed, None, True) == [], hedged
    rerun = _runs((2, "make release", "Error 1", True), (4, "make release", "ok", False))
    assert completion_findings(1, Said.of("The release was re-run and passed."), rerun, None, True) == []
    for command in ("cd api && go test ./...", "mise run test && mise run lint", "./check.sh", "run_tests({})"):
        tests = _runs((2, command, "ok", False))
        assert completion_findings(1, Said.of("All tests pass."), tests, None, True) == [], command
    body = _runs((2, 'gh pr create --body "all tests pass"', "https://github.com/o/r/pull/3", False))
    assert [f.code for f in completion_findings(1, Said.of("测试全部通过。"), body, None, True)] == ["completion_unshown"]
    assert completion_findings(1, Said.of("Deployed v2 to production."), (), None, True) == []  # no run: not read
    status = _runs((2, "git status", "clean", False))
    for user, shown_by_user in (("I merged it myself this morning.", True), ("Can you check it was merged?", False),
                                ("It is not merged yet, please wait.", False), ("我已经合并了。", True),
                                ("已合并，谢谢。", True)):
        got = completion_findings(1, Said.of("The PR was merged."), status, None, True, ((1, user),))
        assert (got == []) is shown_by_user, user


def test_a_path_the_range_moved_or_a_changed_file_named_in_another_folder(tmp_path: Path) -> None:
    moved = _runs((3, "git mv src/old_api.py src/api.py", "", False))
    said = Said.of("Edited `src/old_api.py` to add the retry.")
    assert [(f.code, f.severity) for f in stale_path_findings(1, said, "", True, moved, None)] == [("path_stale", "finding")]
    told = Said.of("Edited src/old_api.py, then renamed it to src/api.py.")
    assert stale_path_findings(1, told, "", True, moved, None) == []
    again = (*moved, *_runs((5, 'Write({"file_path": "src/old_api.py"})', "written", False)))
    assert stale_path_findings(1, said, "", True, again, None) == []  # written again after the move
    edit = _runs((2, 'Edit({"file_path": "/repo/cmd/app/session/state.go"})', "updated", False))
    evidence = "/repo/cmd/app/session/state.go edited"
    wrong = stale_path_findings(1, Said.of("Added the field to cmd/app/strategy/state.go."), evidence, False, edit, None)
    assert [(f.code, f.severity) for f in wrong] == [("path_misplaced", "warning")]
    assert stale_path_findings(1, Said.of("Added the field to app/state.go."), evidence, False, edit, None) == []
    # The real summary moved to another folder: a "?" of its own; the real one has none.
    store, session = _imported(tmp_path / "stale", "manual-stale-path")
    assert _codes(store, session).get("path_misplaced") == "warning"
    store, session = _imported(tmp_path / "faithful", "manual-faithful")
    assert "path_misplaced" not in _codes(store, session)


def test_what_the_user_chose_is_proposed_and_what_only_looks_like_a_choice_is_not() -> None:
    assert stated("use `entire`, not `go run`") == ("use `entire`", ["`go run`"], "against")
    assert stated("ok, let's keep the notarize timeout at 45m rather than 60m.") == (
        "keep the notarize timeout at 45m", ["60m"], "against")
    assert stated("I'd rather recover gracefully than fail early") == ("recover gracefully", ["fail early"], "against")
    assert stated("Set the notarize timeout to 45m.") == ("Set the notarize timeout to 45m", [], "value")
    assert stated("不用 Redis，改用 Memcached") == ("用 Memcached", ["Redis"], "against")
    assert stated("把超时改成 45 分钟") == ("把超时改成 45 分钟", [], "value")
    assert stated("我们决定用 PostgreSQL") == ("我们决定用 PostgreSQL", [], "choice")
    for nothing in ("the hook uses go run instead of entire", "let's start there first", "can you set it to 5?",
                    "I would rather not", "no, then it's good", "Let's go with option B", "我倾向 A，但运维担心维护成本。",
                    "两个维度共同决定表示。", "保留判断做完，接着决定原文怎么留。"):
        assert stated(nothing) is None, nothing

    def ev(seq: int, kind: str, text: str) -> LogEvent:
        return LogEvent(seq, kind, "user" if kind == "user_message" else "model", text)

    facts = extract([ev(1, "user_message", "Fix the flaky export test."),
                     ev(2, "assistant_message", "I'll use a 45m timeout rather than 60m."),
                     ev(3, "user_message", "```\nuse retries instead of backoff\n```\nthanks")])
    assert [f for f in facts if f.rule.startswith("decision.user_stated")] == []  # the agent's words, code


def test_a_flipped_choice_the_user_stated_in_the_range_is_contradicted_once_confirmed(tmp_path: Path) -> None:
    store, session = _imported(tmp_path / "flipped", "choice-flipped")
    assert "dispute_flattened" not in _codes(store, session)  # the user's choice, pending: no dispute
    _run("confirm", str(store), "--session", session, "--all-pending")
    assert _codes(store, session).get("decision_reversed") == "finding"
    survival = _run("survival", str(store), "--session", session)
    decided = [v for v in survival["facts"] if v["key"].startswith("decision.keep-the")]
    assert [v["verdict"] for v in decided] == ["contradicted"]
    store, session = _imported(tmp_path / "faithful", "choice-faithful")
    _run("confirm", str(store), "--session", session, "--all-pending")
    assert "decision_reversed" not in _codes(store, session)
    survival = _run("survival", str(store), "--session", session)
    assert [v["verdict"] for v in survival["facts"] if v["key"].startswith("decision.keep-the")] == ["kept"]


def test_a_tools_return_value_and_a_setting_the_log_gives_otherwise(tmp_path: Path) -> None:
    from inspector.domain.output_said_values import said_value_findings

    runs = _runs((3, "roll_dice", "4", False), (5, "roll_dice", "2", False))
    for said, codes in (("roll_dice returned 6.", ["output_misstated"]), ("roll_dice returned 2 the second time.", []),
                        ("`roll_dice` 返回了 6。", ["output_misstated"]), ("count_rows returned 6.", [])):
        assert [f.code for f in said_value_findings(1, Said.of(said), said, None, True, runs, None)] == codes, said
    evidence = 'edit {"old_string": "timeout: 20m", "new_string": "timeout: 45m"} retry: 1'
    for text, found in (("Raised `timeout: 20m` to `timeout: 45m`, added `retry: 1`.", []),
                        ("Raised `timeout: 20m` to `timeout: 30m`.", [("value_misstated", "finding")]),
                        ('All have `base_commit = "45m"`.', []), ("Set `workers: 4`.", [])):
        got = said_value_findings(1, Said.of(text), text, evidence, True, (), None)
        assert [(f.code, f.severity) for f in got] == found, text
    assert [f.severity for f in said_value_findings(1, Said.of("`timeout: 30m`"), "`timeout: 30m`", evidence, False,
                                                    (), None)] == ["warning"]  # a continued log: "?"
    for name, code in (("release-timeout-number", "value_misstated"), ("dice-roll-changed", "output_misstated")):
        store, session = _imported(tmp_path / name, name)
        assert _codes(store, session).get(code) == "finding", name
    for name in ("release-faithful", "dice-faithful", "micro-faithful"):
        store, session = _imported(tmp_path / name, name)
        assert not {"value_misstated", "output_misstated"} & set(_codes(store, session)), name


def test_a_message_that_only_chooses_is_no_later_request_and_one_that_asks_more_stays_one() -> None:
    def ev(seq: int, kind: str, text: str) -> LogEvent:
        return LogEvent(seq, kind, "user" if kind == "user_message" else "model", text)

    for said, request in (("ok, let's keep the notarize timeout at 45m rather than 60m.", False),
                          ("let's use Postgres instead of SQLite for the new service, and add the migration", True)):
        facts = extract([ev(1, "user_message", "Fix the release."), ev(2, "assistant_message", "Raised it to 45m."),
                         ev(3, "user_message", said)])
        assert [f.rule for f in facts if f.rule.startswith("decision.user_stated")] == ["decision.user_stated:against"]
        assert any(f.key.startswith("goal.later_request") for f in facts) is request, said
