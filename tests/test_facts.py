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
    assert [f.value for f in by_kind(facts, "goal")] == [
        "Fix the export timeout on branch `fix/export-500`. Never touch the production database."]
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
    assert out.headline() == "gen 1 keeps 1 of 5 facts"  # evt:90 lies outside the range: not judged


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
        assert reports and all(r.result is not None for r in reports)
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
