"""A new user's first hour, round seventeen (docs/reviews/new-user-17.md).

Each test failed on main b068731 before its fix. The first ones are the one harm that a user meets
by doing what the README says with a transcript an agent is still writing: ``inspector import
run.jsonl --into my.db`` again after the agent went on ("re-running it is safe") was refused as "the
file was rewritten, not only appended to" — untrue, it had only grown — and a transcript opened while
its last line was half written lost that line's record for good (its two halves read as two
unreadable lines, the tool result in it never paired with its call).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.following import catch_up
from inspector.store.connection import open_store


def _lines(session: str = "cc-grow") -> list[bytes]:
    """A Claude Code transcript: a question, a Bash call, its result, the answer, a second question."""
    base = {"sessionId": session, "cwd": "/work/app", "version": "2.1.14"}
    rows = [
        {"type": "user", "uuid": "u1", "timestamp": "2026-01-05T10:00:00.000Z",
         "message": {"role": "user", "content": "why does the export time out?"}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "timestamp": "2026-01-05T10:00:05.000Z",
         "message": {"role": "assistant", "id": "m1", "content": [
             {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "make export"}}]}},
        {"type": "user", "uuid": "u2", "parentUuid": "a1", "timestamp": "2026-01-05T10:00:09.000Z",
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "toolu_1", "content": "timeout after 30 s at batch 1400 " * 20}]}},
        {"type": "assistant", "uuid": "a2", "parentUuid": "u2", "timestamp": "2026-01-05T10:00:12.000Z",
         "message": {"role": "assistant", "id": "m2", "content": [{"type": "text", "text": "Batch 1400 times out."}]}},
        {"type": "user", "uuid": "u3", "parentUuid": "a2", "timestamp": "2026-01-05T10:01:00.000Z",
         "message": {"role": "user", "content": "stream it instead"}},
    ]
    return [json.dumps({**base, **row}).encode() + b"\n" for row in rows]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [*args, *(["--reviewer", "ann"] if args[0] == "import" else [])])
    return result.exit_code, result.stdout, result.stderr


async def _events(store: Path, session: str = "cc-grow") -> list[tuple[str, str | None]]:
    async with await open_store(store) as opened:
        rows = await opened.db.execute_fetchall("SELECT kind, call_id FROM events WHERE session = ? ORDER BY seq",
                                                (session,))
    return [(str(k), c) for k, c in rows]


def test_importing_a_transcript_again_after_the_agent_went_on_adds_what_it_appended(tmp_path: Path) -> None:
    lines = _lines()
    src, store = tmp_path / "run.jsonl", tmp_path / "my.db"
    src.write_bytes(b"".join(lines[:2]))
    assert _run("import", str(src), "--into", str(store))[0] == 0
    src.write_bytes(b"".join(lines))  # the agent went on: three more lines
    code, out, err = _run("import", str(src), "--into", str(store))
    assert code == 0, err
    assert "rewritten" not in out + err
    assert "appended" in out and "3 new events" in out, out
    whole = tmp_path / "whole.db"
    assert _run("import", str(src), "--into", str(whole))[0] == 0
    assert asyncio.run(_events(store)) == asyncio.run(_events(whole))  # the same events as one import of the whole file
    back = tmp_path / "back.jsonl"
    assert _run("export", str(store), "--session", "cc-grow", "--original", "-o", str(back))[0] == 0
    assert back.read_bytes() == src.read_bytes()
    assert _run("verify", str(store))[0] == 0
    code, out, _ = _run("import", str(src), "--into", str(store), "--json")  # nothing new since: said so, as before
    assert code == 0 and json.loads(out)["added"] == {}, out
    src.write_bytes(b"".join(lines) + lines[0].replace(b'"u1"', b'"u9"'))  # one more line: its counts in --json
    code, out, _ = _run("import", str(src), "--into", str(store), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["events"] == 1 and doc["added"]["event"] == 1 and doc["materials"] == 1, out
    assert doc["appended"]["from"] == len(b"".join(lines)) and doc["appended"]["to"] == src.stat().st_size


def test_a_half_written_last_line_is_not_imported_until_it_is_whole(tmp_path: Path) -> None:
    lines = _lines()
    src, store = tmp_path / "run.jsonl", tmp_path / "my.db"
    src.write_bytes(b"".join(lines[:2]) + lines[2][:150])  # the tool result being written
    code, out, err = _run("import", str(src), "--into", str(store))
    assert code == 0, err
    assert "line 3" in out and "still be writing it" in out and "not imported" in out, out
    code, out, err = _run("import", str(src), "--into", str(store))  # again, the line still half written
    assert code == 0 and "nothing new (no whole line after byte" in out and "line 3 is not whole yet" in out, out + err
    src.write_bytes(b"".join(lines))
    code, out, err = _run("import", str(src), "--into", str(store))
    assert code == 0, err
    kinds = asyncio.run(_events(store))
    whole = tmp_path / "whole.db"
    assert _run("import", str(src), "--into", str(whole))[0] == 0
    assert ("tool_result", "toolu_1") in kinds and kinds == asyncio.run(_events(whole)), kinds
    code, out, _ = _run("check", str(store), "--json")
    assert code == 0, out  # the call has its result: no unresolved_call, no unread line


async def test_a_transcript_opened_mid_line_keeps_that_lines_record_when_it_is_whole(tmp_path: Path) -> None:
    """``inspector FILE`` (catch_up, then the app follows): the half line was read as an unreadable
    line, and the rest of it, once written, as a second one; the tool result was never imported."""
    lines = _lines()
    src, store = tmp_path / "run.jsonl", tmp_path / "run.db"
    src.write_bytes(b"".join(lines[:2]) + lines[2][:150])
    first = await catch_up(src, store, actor="ann")
    assert first.unread == [] and first.offset == len(b"".join(lines[:2]))
    src.write_bytes(b"".join(lines))
    await catch_up(src, store, actor="ann")
    kinds = await _events(store)
    assert ("tool_result", "toolu_1") in kinds and not any(k == "other" for k, _ in kinds), kinds


def test_an_import_that_read_a_cut_line_is_not_called_rewritten_when_the_line_goes_on(tmp_path: Path) -> None:
    """A store made before this fix read the half line as unreadable; the file then grew: the
    refusal said "rewritten, not only appended to". It now says what happened and the way on."""
    from inspector.domain.formats.tail import complete_lines
    from inspector.services import grown_file

    lines = _lines()
    data = b"".join(lines[:2]) + lines[2][:150]
    assert grown_file.line_goes_on(data + lines[2][150:], len(data))
    assert not grown_file.line_goes_on(b"".join(lines), len(b"".join(lines[:2])))
    assert complete_lines(data) == b"".join(lines[:2])
    refusal = grown_file.cut_line_refusal("run.jsonl", data + lines[2][150:], len(data))
    assert refusal.code == "source_line_cut" and "rewritten" not in str(refusal)
    assert "line 3" in str(refusal) and "new store" in str(refusal)


def test_an_unreadable_line_does_not_say_at_twice(tmp_path: Path) -> None:
    lines = _lines()
    src = tmp_path / "run.jsonl"
    src.write_bytes(lines[0] + lines[2][:150] + b"\n" + lines[3])  # a cut line inside the file
    code, out, err = _run("import", str(src), "--into", str(tmp_path / "s.db"))
    assert code == 0, err
    assert "starting at at" not in out and "Unterminated string starting at column" in out, out


async def test_opening_a_transcript_mid_line_says_the_line_waits(tmp_path: Path, monkeypatch: object) -> None:
    from inspector.cli.open_command import resolve_target

    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(tmp_path / "cache"))  # type: ignore[attr-defined]
    lines = _lines()
    src = tmp_path / "run.jsonl"
    src.write_bytes(b"".join(lines[:2]) + lines[2][:150])
    notes: list[str] = []
    await resolve_target(src, "ann", notes)
    assert notes == ["line 3 is not whole yet (150 bytes with no line end: the agent may still be writing it): not "
                     "imported; it is read as soon as its line end is written (the file is followed live)"], notes


def test_one_unread_line_is_said_in_the_singular(tmp_path: Path) -> None:
    """A re-import said "1 line (or parts) of the transcript could not be read and are kept …"."""
    lines = _lines()
    src, store = tmp_path / "run.jsonl", tmp_path / "s.db"
    src.write_bytes(lines[0] + b"{not json\n" + lines[3])
    assert _run("import", str(src), "--into", str(store))[0] == 0
    code, out, _ = _run("import", str(src), "--into", str(store))
    assert code == 0 and "(or parts)" not in out, out
    assert "1 line or part of a line of the transcript could not be read and is kept in the original" in out, out


def test_check_of_one_session_does_not_say_it_checks_every_one() -> None:
    from inspector.cli.store_commands import checking_stage

    assert checking_stage(()) == "checking every session"
    assert checking_stage(("s-export",)) == "checking 1 session"
    assert checking_stage(("a", "b", "a")) == "checking 2 sessions"


async def test_f1_shows_and_hides_the_keys_as_question_mark_does(sample_store: Path,
                                                                  monkeypatch: object) -> None:
    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")  # type: ignore[attr-defined]
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        await settle(app, pilot)
        assert app.screen.query("HelpPanel"), "F1 shows the keys"
        await pilot.press("f1")
        await settle(app, pilot)
        assert not app.screen.query("HelpPanel"), "F1 again hides them"


def test_the_reports_ledger_says_an_imports_records_in_words(tmp_path: Path) -> None:
    """The report's ledger row said "added 4 event, 1 material, 1 session, 1 state"."""
    src, store = tmp_path / "run.jsonl", tmp_path / "s.db"
    src.write_bytes(b"".join(_lines()))
    assert _run("import", str(src), "--into", str(store))[0] == 0
    code, out, _ = _run("report", str(store), "--session", "cc-grow", "--json")
    assert code == 0, out
    doc = json.loads(out)
    acts = doc.get("acts") or doc.get("ledger")
    [what] = [a["what"] for a in acts if a["kind"] == "import"]
    assert "added 6 events, 1 material, 1 session, " in what and "state record" in what, what
    assert "1 event" not in what.replace("6 events", "")


def test_budget_says_what_its_ratio_is_of(sample_store: Path) -> None:
    """"loaded 51,050 · ratio 0.9504" under "history budget 116,000": the ratio is not loaded / budget
    (0.44) but loaded / the raw history's tokens, which nothing printed."""
    result = CliRunner().invoke(cli, ["budget", str(sample_store), "--session", "s-export"])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    plan = json.loads(CliRunner().invoke(cli, ["budget", str(sample_store), "--session", "s-export", "--json"]).stdout)
    assert f"loaded {plan['loaded_tokens']:,} of the raw history's {plan['raw_history_tokens']:,}" in first, first
    assert f"(ratio {plan['ratio']}: length only, not quality)" in first, first


def test_no_actions_says_a_transcripts_tool_calls_are_not_in_the_action_ledger(tmp_path: Path) -> None:
    """A session whose agent ran `make export` (and, in a real one, `git push`) printed "(no actions)"."""
    src, store = tmp_path / "run.jsonl", tmp_path / "s.db"
    src.write_bytes(b"".join(_lines()))
    assert _run("import", str(src), "--into", str(store))[0] == 0
    code, out, _ = _run("actions", str(store), "--session", "cc-grow")
    assert code == 0 and out.strip() != "(no actions)", out
    assert "tool calls" in out and "timeline" in out, out


def test_a_later_copy_under_another_name_is_not_called_rewritten(tmp_path: Path) -> None:
    """early.jsonl (two lines) imported, then later.jsonl (the same session, five lines): "later.jsonl
    now says one of its records differently (the file was rewritten, not only appended to)" — neither
    file was rewritten."""
    lines = _lines()
    (tmp_path / "early.jsonl").write_bytes(b"".join(lines[:2]))
    (tmp_path / "later.jsonl").write_bytes(b"".join(lines))
    store = tmp_path / "s.db"
    assert _run("import", str(tmp_path / "early.jsonl"), "--into", str(store))[0] == 0
    code, out, err = _run("import", str(tmp_path / "later.jsonl"), "--into", str(store))
    assert code == 3, out
    said = " ".join(err.split())
    assert "rewritten" not in said and "the store read this session from early.jsonl" in said, said
    assert "`inspector later.jsonl` opens it in one of its own" in said, said


def test_several_files_are_imported_one_after_another(tmp_path: Path) -> None:
    """`inspector import *.jsonl --into team.db` stopped at "Got unexpected extra arguments"."""
    (tmp_path / "a.jsonl").write_bytes(b"".join(_lines("cc-a")))
    (tmp_path / "b.jsonl").write_bytes(b"".join(_lines("cc-b")))
    (tmp_path / "empty.jsonl").write_bytes(b"")
    store = tmp_path / "team.db"
    files = [str(tmp_path / n) for n in ("a.jsonl", "empty.jsonl", "b.jsonl")]
    code, out, err = _run("import", *files, "--into", str(store))
    assert code == 3, out + err  # one was refused
    assert "session cc-a" in out and "session cc-b" in out, out
    assert "error: empty.jsonl is empty" in err and "3 files: 2 imported, 1 refused" in out, (out, err)
    code, out, _ = _run("import", *files, "--into", str(store), "--json")
    docs = json.loads(out)
    assert [d["file"] for d in docs] == files
    assert docs[1]["error"]["code"] == "empty_file" and docs[0]["added"] == {} and docs[2]["sessions"] == ["cc-b"]
    code, out, _ = _run("sessions", str(store))
    assert "cc-a" in out and "cc-b" in out


def test_an_eval_logs_samples_are_listed_in_number_order(tmp_path: Path) -> None:
    """A ten-sample .eval listed "sample 10" before "sample 1" (its members sorted as text)."""
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("header.json", json.dumps({"eval": {"task": "pop", "model": "m"}}))
        for n in (1, 2, 10):
            z.writestr(f"samples/{n}_epoch_1.json", json.dumps({"id": n, "epoch": 1, "messages": [
                {"role": "user", "content": f"question {n}"}, {"role": "assistant", "content": "yes"}]}))
    src = tmp_path / "pop.eval"
    src.write_bytes(buf.getvalue())
    code, out, err = _run("import", str(src), "--into", str(tmp_path / "s.db"), "--json")
    assert code == 0, err
    assert [s.rsplit("#", 1)[1] for s in json.loads(out)["sessions"]] == ["1.1", "2.1", "10.1"], out


async def test_escape_hides_the_keys_panel(sample_store: Path, monkeypatch: object) -> None:
    """? opened the keys panel and escape — what closes every dialog here — left it open."""
    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")  # type: ignore[attr-defined]
    app = InspectorApp(sample_store)
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await settle(app, pilot)
        assert app.screen.query("HelpPanel")
        await pilot.press("escape")
        await settle(app, pilot)
        assert not app.screen.query("HelpPanel"), "escape hides the keys"


def test_the_start_screens_other_files_say_what_each_is(tmp_path: Path) -> None:
    """Sixteen rows said "file · 19.1 KB": an inspect-ai log, a message list and a JSON of no known
    format looked alike until opened."""
    from inspector.services import discovery
    from inspector.services.unlisted import as_found
    from inspector.ui.browser_screen import other_prompt

    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "chat.conversation.json").write_text(json.dumps([
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]))
    (folder / "random.json").write_text('{"x": 1}\n')
    (folder / "blank.json").write_text("")
    (folder / "run-copy.jsonl").write_bytes(b"".join(_lines()))
    rows = {Path(f.path).name: f for f in as_found(sorted(str(p) for p in folder.iterdir()))}
    assert {n: f.tool for n, f in rows.items()} == {
        "chat.conversation.json": "OpenAI chat message list", "random.json": "no format inspector reads",
        "blank.json": "empty file", "run-copy.jsonl": "Claude Code transcript"}
    assert "OpenAI chat message list · " in other_prompt(rows["chat.conversation.json"]).plain
    assert isinstance(rows["random.json"], discovery.Found)


def test_a_sif_file_cut_in_its_last_line_is_still_refused_whole(tmp_path: Path) -> None:
    """Only the agents' transcripts wait for a line's end: sif/1 stays all or nothing."""
    from tests.conftest import event_record, session_record

    head = json.dumps({"type": "header", "format": "sif/1"}) + "\n" + json.dumps(session_record()) + "\n"
    line = json.dumps(event_record(1, content="first"))
    src = tmp_path / "cut.sif.jsonl"
    src.write_text(head + line[:30])
    code, out, err = _run("import", str(src), "--into", str(tmp_path / "s.db"))
    assert code == 3 and not (tmp_path / "s.db").exists(), out + err


def test_a_transcript_of_json_lines_given_another_format_says_so(tmp_path: Path) -> None:
    """`--from openai-chat` on a Claude Code transcript said "line 2: not valid JSON (Extra data)";
    `--from gemini` imported "1 material, 1 session" — a session of no events, from the first line."""
    src = tmp_path / "run.jsonl"
    src.write_bytes(b"".join(_lines()))
    for fmt in ("openai-chat", "anthropic", "gemini"):
        store = tmp_path / f"{fmt}.db"
        code, out, err = _run("import", str(src), "--from", fmt, "--into", str(store))
        said = " ".join(err.split())
        assert code == 3 and not store.exists(), (fmt, out, err)
        assert "Extra data" not in said and "JSON lines" in said and "leave out --from" in said, (fmt, said)


def test_a_gemini_document_without_messages_is_not_imported_as_an_empty_session(tmp_path: Path) -> None:
    src = tmp_path / "chat.json"
    src.write_text(json.dumps({"sessionId": "g-1", "projectHash": "p", "startTime": "2026-01-01T00:00:00Z"}))
    code, out, err = _run("import", str(src), "--from", "gemini", "--into", str(tmp_path / "s.db"))
    assert code == 3 and "no messages list" in err, out + err


def test_a_message_list_given_as_inspect_ai_is_not_called_a_log_with_no_samples(tmp_path: Path) -> None:
    src = tmp_path / "chat.conversation.json"
    src.write_text(json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]))
    code, out, err = _run("import", str(src), "--from", "inspect-ai", "--into", str(tmp_path / "s.db"))
    assert code == 3 and "not an Inspect AI log" in err and "with no samples" not in err, out + err


def test_a_sources_folder_that_is_not_there_is_said(tmp_path: Path, monkeypatch: object) -> None:
    """INSPECTOR_SOURCES=/tmp/nope (a typo): "0 transcripts in 0 projects (sources: /tmp/nope)" and
    the app opened the demo, with no word that the folder does not exist."""
    monkeypatch.setenv("INSPECTOR_SOURCES", str(tmp_path / "nope"))  # type: ignore[attr-defined]
    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(tmp_path / "cache"))  # type: ignore[attr-defined]
    result = CliRunner().invoke(cli, ["sessions", "--discover"])
    assert result.exit_code == 0, result.output
    assert f"⚠ INSPECTOR_SOURCES names {tmp_path / 'nope'}, which is not a folder" in result.output, result.output
    doc = json.loads(CliRunner().invoke(cli, ["sessions", "--discover", "--json"]).stdout)
    assert doc["missing_sources"] == [str(tmp_path / "nope")]


async def test_the_app_says_a_sources_folder_that_is_not_there(tmp_path: Path, monkeypatch: object) -> None:
    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    monkeypatch.setenv("INSPECTOR_SOURCES", str(tmp_path / "nope"))  # type: ignore[attr-defined]
    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(tmp_path / "cache"))  # type: ignore[attr-defined]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")  # type: ignore[attr-defined]
    app = InspectorApp(None)
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        said = [(n.title, str(n.message)) for n in app._notifications]
    assert any(t == "Transcript folder not found" and "nope" in m for t, m in said), said


async def test_the_start_screens_search_finds_other_files_by_what_they_are(tmp_path: Path, monkeypatch: object) -> None:
    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets.transcript_list import TranscriptList
    from tests.test_app import settle

    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "run-7.conversation.json").write_text(json.dumps([
        {"role": "user", "content": "roll the die"}, {"role": "assistant", "content": "I rolled a 4."}]))
    (folder / "random.json").write_text('{"x": 1}\n')
    (folder / "cc-grow.jsonl").write_bytes(b"".join(_lines()))  # a transcript, so the list (not the demo) opens
    for name, value in (("INSPECTOR_CACHE_DIR", "cache"), ("INSPECTOR_DATA_DIR", "data")):
        monkeypatch.setenv(name, str(tmp_path / value))  # type: ignore[attr-defined]
    app = InspectorApp(sources=[folder], reviewer="alice")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"message list")
        await settle(app, pilot)
        keys = [r.key for r in app.screen.query_one(TranscriptList).rows if r.key]
    assert keys == [f"t:{folder / 'run-7.conversation.json'}"], keys


def test_history_says_a_correction_without_a_double_space(sample_store: Path) -> None:
    """`history` printed "L50 correction by newuser-17:  clarify" (an empty decision before the reason)."""
    code, out, err = _run("correct", str(sample_store), "--session", "s-export", "--key", "goal.main", "--value",
                          "修复订单导出超时并加监控", "--reason", "clarify", "--reviewer", "lin")
    assert code == 0, out + err
    code, out, _ = _run("history", str(sample_store), "--session", "s-export", "--key", "goal.main")
    lines = [ln for ln in out.splitlines() if " correction by lin:" in ln]
    assert lines and all(": clarify" in ln and ":  " not in ln for ln in lines), out
