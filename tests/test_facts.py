"""Facts proposed from the raw log, and survival verdicts per generation (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.facts import extract
from inspector.domain.logevents import LogEvent
from inspector.domain.survival import Fact, survival
from inspector.services.drift import drift
from inspector.services.importing import import_file
from inspector.services.survival import survival_all
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store

SHARED = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
REAL = sorted(SHARED.glob("*.jsonl")) if SHARED.is_dir() else []
EDIT_TOOLS = {"Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}


def user(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "user_message", "user", text)


def call(seq: int, tool: str, args: dict, call_id: str) -> LogEvent:
    return LogEvent(seq, "tool_call", "model", None, tool=tool, call_id=call_id, args=args)


def result(seq: int, text: str, call_id: str, *, error: bool = False, tool: str | None = None) -> LogEvent:
    return LogEvent(seq, "tool_result", "tool", text, tool=tool, call_id=call_id, is_error=error)


def by_kind(facts: list, kind: str) -> list:
    return [f for f in facts if f.kind == kind]


def test_user_words_propose_goal_constraints_and_references_in_english_and_chinese() -> None:
    facts = extract([
        user(1, "Fix the export timeout on branch `fix/export-500`. Never touch the production database."),
        LogEvent(2, "assistant_message", "model", "From now on always skip validation."),
        user(3, "再强调一次：不得修改生产库。I don't know why it fails, see https://example.org/run/9 and 803390c7"),
        user(4, "Never touch the production database."),
    ])
    # evt:3 says more than its rule ("see https://…"): a later request (verdict-gaps, F13); evt:4 is its rule only.
    assert [(f.key.split(".")[1], f.value) for f in by_kind(facts, "goal")] == [
        ("main", "Fix the export timeout on branch `fix/export-500`. Never touch the production database."),
        ("later_request", "再强调一次：不得修改生产库。I don't know why it fails, see https://example.org/run/9 and 803390c7")]
    constraints = {f.value: f for f in by_kind(facts, "constraint")}
    assert set(constraints) == {"Never touch the production database", "再强调一次：不得修改生产库"}
    assert constraints["Never touch the production database"].sources == ["evt:1", "evt:4"]  # merged, two sources
    assert all("always skip" not in f.value for f in facts)  # model output never proposes a rule
    assert {f.value for f in by_kind(facts, "reference")} == {"fix/export-500", "https://example.org/run/9",
                                                              "803390c7"}
    assert all(f.rule for f in facts) and len({f.key for f in facts}) == len(facts)
    assert [f.key for f in extract([user(1, "Never touch prod.")])] == [f.key for f in extract([user(1, "Never touch prod.")])]


def test_a_pick_between_offered_options_is_a_decision_with_alternatives_and_rationale() -> None:
    facts = extract([
        user(1, "导出超时了"),
        LogEvent(2, "assistant_message", "model", "第 1400 批超时。方案 A：流式导出；方案 B：分页导出。倾向流式。"),
        user(3, "采用方案A，分页先不做。"),
    ])
    (decision,) = by_kind(facts, "decision")
    assert (decision.value, decision.alternatives, decision.rationale) == ("流式导出", ["分页导出"], "采用方案A，分页先不做。")


def test_edits_patches_failures_and_the_todo_list() -> None:
    patch = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** Add File: docs/new.md\n+x\n*** End Patch"
    facts = extract([
        user(1, "go"),
        call(2, "Edit", {"file_path": "/repo/src/a.py", "old_string": "a", "new_string": "b"}, "c2"),
        result(3, "ok", "c2"),
        call(4, "Write", {"file_path": "/repo/src/b.py", "content": "x"}, "c4"),
        result(5, "File has not been read yet", "c4", error=True),
        call(6, "apply_patch", {"_raw_arguments": patch}, "c6"),
        call(7, "Bash", {"command": "pytest -q"}, "c7"),
        result(8, "FAILED tests/test_a.py::test_x\n1 failed, 3 passed", "c7"),
        call(9, "Bash", {"command": "pytest  -q"}, "c9"),
        result(10, "4 passed", "c9"),
        call(11, "Bash", {"command": "make lint"}, "c11"),
        result(12, "Exit code 2\nlint: 3 problems", "c11", error=True),
        call(13, "TodoWrite", {"todos": [{"content": "Fix a", "status": "completed"},
                                         {"content": "Measure P95", "status": "pending"}]}, "c13"),
    ])
    assert {f.value for f in by_kind(facts, "artifact")} == {"/repo/src/a.py", "src/app.py", "docs/new.md"}
    failures = {f.detail["signature"]: f for f in by_kind(facts, "failure")}
    assert failures["pytest -q"].detail["resolved_by"] == "evt:10"  # same command, later green
    assert failures["make lint"].detail["resolved_by"] is None
    assert [f.value for f in by_kind(facts, "open_issue")] == ["Measure P95"]
    assert [f.value for f in by_kind(facts, "progress")] == ["Fix a"]


def test_survival_verdicts_kept_missing_contradicted_unknown() -> None:
    facts = [
        Fact("c1", "constraint", "不得修改生产库", "active", ("evt:1",)),
        Fact("a1", "artifact", "/repo/cmd/main.go", "pending", ("evt:2",), "extractor"),
        Fact("a2", "artifact", "/repo/docs/notes.md", "pending", ("evt:3",), "extractor"),
        Fact("o1", "open_issue", "P95 仍待测", "active", ("evt:4",)),
        Fact("g1", "goal", "ship the export fix with streaming", "active", ("evt:1",)),
        Fact("late", "constraint", "never deploy on friday", "active", ("evt:90",)),
    ]
    out = survival(1, "原先'不得修改生产库'的限制已取消。改了 main.go。P95 已通过。We will ship the export fix.",
                   [], (1, 10), facts)
    verdicts = {v.fact.key: v.verdict for v in out.verdicts}
    assert verdicts == {"c1": "contradicted", "a1": "kept", "a2": "missing", "o1": "contradicted", "g1": "unknown"}
    # a2 is a pending artifact: "pending lost", apart from the two confirmed facts lost (check's ✗)
    assert out.headline() == "gen 1: 1 of 5 facts kept, 2 lost, 1 pending lost, 1 not judged · 1 after its range"


@pytest.mark.skipif(not REAL, reason="needs ../shared/real_sessions/claude-code (CI has it)")
@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name[:24])
async def test_real_transcripts_get_pending_facts_and_exact_artifact_verdicts(tmp_path: Path, path: Path) -> None:
    store = tmp_path / "s.db"
    try:
        report = await import_file(path, store, actor="t")
    except Exception as exc:  # a file the importer refuses is another issue's test
        pytest.skip(f"{path.name} does not import here: {exc}")
    session = report.sessions[0]
    async with await open_store(store) as opened:
        rows = await opened.db.execute_fetchall(
            "SELECT key, status, writer, sources FROM state_records WHERE session = ?", (session,))
        seqs = {r[0] for r in await opened.db.execute_fetchall("SELECT seq FROM events WHERE session = ?", (session,))}
        assert rows, "the Protected state channel must not be empty"
        for _key, status, writer, sources in rows:
            assert (status, writer) == ("pending", "extractor")
            assert all(int(s[4:]) in seqs for s in json.loads(sources))
        reports = await survival_all(opened, session)
        generations = await opened.db.execute_fetchall("SELECT COUNT(*) FROM summaries WHERE session = ?", (session,))
        assert len(reports) == generations[0][0] and all(r.result is not None for r in reports)  # one per summary
        assert (await verify_store(opened)).ok
        # Artifacts are exact: every path an edit named before the boundary is a record, kept iff it
        # (or its file name) is in the summary text.
        for rep in reports:
            gen_text = (await opened.db.execute_fetchall(
                "SELECT text FROM summaries WHERE session = ? AND generation = ?", (session, rep.generation)))[0][0]
            edited = await _edited_before(opened, session, rep.covers[1] if rep.covers else 10**9)
            verdicts = {v.fact.value: v.verdict for v in rep.verdicts if v.fact.kind == "artifact"}
            assert set(edited) <= set(verdicts)
            for p in edited:
                shown = p.casefold() in gen_text.casefold() or p.rsplit("/", 1)[-1].casefold() in gen_text.casefold()
                assert verdicts[p] == ("kept" if shown else "missing"), p


async def _edited_before(opened, session: str, last: int) -> list[str]:  # type: ignore[no-untyped-def]
    out = []
    rows = await opened.db.execute_fetchall(
        "SELECT c.tool, json_extract(c.extra, '$.args'), (SELECT json_extract(r.extra, '$.is_error') FROM events r "
        "WHERE r.session = c.session AND r.call_id = c.call_id AND r.kind = 'tool_result') FROM events c "
        "WHERE c.session = ? AND c.kind = 'tool_call' AND c.seq <= ?", (session, last))
    for tool, args, failed in rows:
        if tool in EDIT_TOOLS and not failed:
            out.append(json.loads(args)[EDIT_TOOLS[tool]])
    return out


def test_cli_facts_survival_rebuild_and_the_accepted_summary_in_use(sample_store: Path) -> None:
    run = CliRunner().invoke
    store = str(sample_store)
    out = run(cli, ["facts", store, "--session", "s-export", "--json"])
    assert out.exit_code == 0
    rows = json.loads(out.stdout)
    assert {"key", "kind", "value", "sources", "status", "writer", "rule"} <= set(rows[0])
    out = run(cli, ["survival", store, "--session", "s-export", "--generation", "3", "--json"])
    doc = json.loads(out.stdout)
    assert out.exit_code == 1 and set(doc) >= {"session", "generation", "covers", "facts", "counts"}
    assert {f["key"]: f["verdict"] for f in doc["facts"]}["open_issue.p95"] == "contradicted"
    out = run(cli, ["accept", store, "cand-good", "--reviewer", "lin", "--json"])
    assert out.exit_code == 0
    out = run(cli, ["drift", store, "--session", "s-export", "--json"])
    assert json.loads(out.stdout)["generation"] == 4 and out.exit_code == 0  # the accepted summary is in use
    out = run(cli, ["budget", store, "--session", "s-export", "--window", "8000", "--json"])
    summary_block = next(b for b in json.loads(out.stdout)["blocks"] if "summary" in b["name"])
    assert any("gen:4" in json.dumps(i) for i in summary_block["items"])
    out = run(cli, ["rebuild", store, "--session", "s-export", "--reviewer", "lin", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["generation"] == 5
    assert run(cli, ["drift", store, "--session", "s-export"]).exit_code == 0
    assert run(cli, ["verify", store]).exit_code == 0
    assert run(cli, ["survival", store, "--session", "nope"]).exit_code == 3


def test_what_only_looks_like_a_rule_or_a_choice_is_not_proposed() -> None:
    junk = ["导出特别慢…", "分别跑一下", "只能说明缓存没命中", "不要紧，继续", "必须的，好主意！",
            "Only 3 of 10 tests pass, please look", "Don't know why it fails, please check", "Never mind, go ahead",
            "You must be tired of this lol"]
    facts = extract([user(i + 1, text) for i, text in enumerate(junk)])
    assert by_kind(facts, "constraint") == []
    picked = extract([LogEvent(1, "assistant_message", "model", "Should we use option A (Redis) or option B (local cache)?"),
                      user(2, "Let's go with B")])
    assert [(d.value, d.alternatives) for d in by_kind(picked, "decision")] == [("local cache", ["Redis"])]
    picked = extract([LogEvent(1, "assistant_message", "model", "方案一：流式导出；方案二：分页导出。选哪个？"),
                      user(2, "用方案二吧")])
    assert [(d.value, d.alternatives) for d in by_kind(picked, "decision")] == [("分页导出", ["流式导出"])]
    assert [f.value for f in by_kind(extract([user(1, "Branch: fix/loader-42 please")]), "reference")] == [
        "fix/loader-42"]


def test_another_file_with_the_same_stem_does_not_keep_an_artifact() -> None:
    fact = Fact("a", "artifact", "/repo/a.go", "pending", ("evt:1",))
    assert survival(1, "Kept a backup in a.go.bak only.", [], (1, 2), [fact]).verdicts[0].verdict == "missing"
    assert survival(1, "Edited a.go.", [], (1, 2), [fact]).verdicts[0].verdict == "kept"


def test_a_judge_must_answer_with_a_known_verdict(sample_store: Path) -> None:
    run = CliRunner().invoke
    base = ["survival", str(sample_store), "--session", "s-export", "--generation", "3"]
    out = run(cli, [*base, "--judge", """sh -c 'echo {\\"verdict\\":\\"banana\\"}'"""])
    assert out.exit_code == 3 and "verdict among" in out.output
    out = run(cli, [*base, "--judge", "false"])
    assert out.exit_code == 3 and "wrote nothing on stderr" in out.output


CODEX_ROLLOUT = [
    {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "cx-9", "cwd": "/repo"}},
    {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item", "payload": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text":
            "Fix the flaky export test in src/export.py. Never push to main."}]}},
    {"timestamp": "2026-01-01T00:00:02Z", "type": "response_item", "payload": {
        "type": "custom_tool_call", "name": "apply_patch", "call_id": "call_1", "input":
            "*** Begin Patch\n*** Update File: src/export.py\n@@\n-a\n+b\n*** End Patch"}},
    {"timestamp": "2026-01-01T00:00:03Z", "type": "response_item", "payload": {
        "type": "custom_tool_call_output", "call_id": "call_1", "output": "Success. Updated src/export.py"}},
    {"timestamp": "2026-01-01T00:00:04Z", "type": "response_item", "payload": {
        "type": "function_call", "name": "shell", "call_id": "call_2",
        "arguments": "{\"command\": [\"pytest\", \"-q\", \"tests/test_export.py\"]}"}},
    {"timestamp": "2026-01-01T00:00:05Z", "type": "response_item", "payload": {
        "type": "function_call_output", "call_id": "call_2",
        "output": "FAILED tests/test_export.py::test_flaky\n1 failed in 0.2s\nProcess exited with code 1"}},
    {"timestamp": "2026-01-01T00:00:06Z", "type": "compacted", "payload": {"message": "", "replacement_history": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text":
            "Fix the flaky export test in src/export.py. Never push to main."}]}]}},
]


async def test_a_codex_rollout_gets_facts_and_a_survival_report(tmp_path: Path) -> None:
    src = tmp_path / "rollout-2026-01-01-cx-9.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in CODEX_ROLLOUT) + "\n", encoding="utf-8")
    store = tmp_path / "cx.db"
    await import_file(src, store, actor="olga")
    async with await open_store(store) as opened:
        (report,) = await survival_all(opened, "cx-9")
        verdicts = {(v.fact.kind, v.fact.value): v.verdict for v in report.verdicts}
        findings = {f.code for f in (await drift(opened, "cx-9")).findings}
    assert verdicts[("artifact", "src/export.py")] == "kept"
    assert verdicts[("constraint", "Never push to main")] == "kept"
    assert verdicts[("failure", "pytest -q tests/test_export.py failed: FAILED tests/test_export.py::test_flaky")] \
        == "missing"
    # the compaction line it cites is its origin, not outside its range; the pending proposals are named unjudged
    assert findings == {"failure_dropped", "facts_not_judged"}
