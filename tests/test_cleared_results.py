"""The tool results a micro-compaction cleared are listed (fresh-eyes F9).

Claude Code's micro-compaction (``compactedToolIds``) clears tool results from the model's
context; it was a timeline event only, and no view said which results the model lost. ``check``
and ``drift --json`` list them (``cleared_results``), plain output says ``results_cleared``,
and the verdict does not move (missing context is shown, it is no finding).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"
SESSION = "s-micro"


def _transcript(path: Path, gone: tuple[str, ...] = ("toolu_GONE",)) -> Path:
    def rec(uuid: str, role: str, content: object) -> dict[str, object]:
        message = {"role": role, "content": content}
        if role == "assistant":
            message |= {"model": "claude-opus-4-5-20251101", "id": f"msg_{uuid}", "type": "message"}
        return {"type": role, "sessionId": SESSION, "uuid": uuid, "timestamp": "2026-01-07T11:47:00.000Z",
                "message": message}
    rows = [rec("u1", "user", "read the two config files"),
            rec("a1", "assistant", [{"type": "tool_use", "id": "toolu_A", "name": "Read",
                                     "input": {"file_path": "/repo/a.yaml"}}]),
            rec("r1", "user", [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "a: 1"}]),
            rec("a2", "assistant", [{"type": "tool_use", "id": "toolu_B", "name": "Read",
                                     "input": {"file_path": "/repo/b.yaml"}}]),
            rec("r2", "user", [{"type": "tool_result", "tool_use_id": "toolu_B", "content": "b: 2"}]),
            {"type": "system", "subtype": "microcompact_boundary", "content": "Context microcompacted",
             "sessionId": SESSION, "uuid": "m1", "timestamp": "2026-01-07T11:48:00.000Z",
             "microcompactMetadata": {"trigger": "auto", "preTokens": 900, "tokensSaved": 400,
                                      "compactedToolIds": ["toolu_A", *gone], "clearedAttachmentUUIDs": []}},
            rec("a3", "assistant", "Both files read.")]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _store(source: Path, tmp_path: Path) -> Path:
    store = tmp_path / "s.db"
    result = CliRunner().invoke(cli, ["import", str(source), "--into", str(store), "--reviewer", "t"])
    assert result.exit_code == 0, result.output
    return store


def test_check_and_drift_list_the_results_a_micro_compaction_cleared(tmp_path: Path) -> None:
    store = _store(_transcript(tmp_path / "s.jsonl"), tmp_path)
    doc = json.loads(CliRunner().invoke(cli, ["check", str(store), "--json"]).output)
    (session,) = doc["sessions"]
    seqs = {c["call_id"]: (c["call"], c["result"], c["tool"]) for c in session["cleared_results"]}
    assert seqs["toolu_GONE"] == (None, None, None)
    call, result, tool = seqs["toolu_A"]
    assert call and result and tool == "Read" and int(call[4:]) < int(result[4:])
    assert {c["at"] for c in session["cleared_results"]} == {session["cleared_results"][0]["at"]}
    assert session["verdict"] == "clear"  # listed as lost context, never a finding or a "?"
    assert [w["code"] for w in session["warnings"]] == ["results_cleared"]

    plain = CliRunner().invoke(cli, ["check", str(store)]).output
    assert "results_cleared" in plain and result in plain and "1 not in this log" in plain

    drift = CliRunner().invoke(cli, ["drift", str(store), "--session", SESSION, "--json"])
    assert [c["call_id"] for c in json.loads(drift.output)["cleared_results"]] == ["toolu_A", "toolu_GONE"]
    assert "results_cleared" in CliRunner().invoke(cli, ["drift", str(store), "--session", SESSION]).output


def test_the_real_micro_compaction_lists_its_42_results(tmp_path: Path) -> None:
    source = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    store = _store(source, tmp_path)
    doc = json.loads(CliRunner().invoke(cli, ["check", str(store), "--json"]).output)
    (session,) = doc["sessions"]
    cleared = session["cleared_results"]
    # Line 33 of the file (evt:33) names 42 results, all called in the conversation this file continues.
    assert len(cleared) == 42 and {c["at"] for c in cleared} == {"evt:33"}
    assert cleared[0]["call_id"] == "toolu_01Ccc8vRsWj8nabNky1oKWf1"
    assert any(w["code"] == "results_cleared" and "42 tool results" in w["message"] for w in session["warnings"])


async def test_the_drift_tab_has_a_section_of_the_cleared_results(tmp_path: Path) -> None:
    from textual.widgets import OptionList

    from inspector.services.importing import import_file
    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    store = tmp_path / "s.db"
    await import_file(_transcript(tmp_path / "s.jsonl"), store, actor="t")
    app = InspectorApp(store, reviewer="t")
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("d")
        await settle(app, pilot)
        options = app.screen.query_one("#drift-findings", OptionList)
        rows = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        options.focus()
        await pilot.press("end")  # a keyboard user reaches the section's last row (it was disabled: End stopped short)
        await settle(app, pilot)
        assert options.highlighted == options.option_count - 1 and "toolu_" in rows[-1]
        from inspector.ui.widgets.drift_view import DriftView
        assert app.screen.query_one(DriftView).selected() is None  # no finding behind it: `c` corrects no generation
    text = "\n".join(rows)
    assert "micro-compaction: 2 tool results cleared from the model's context" in text
    assert "(toolu_A)" in text and "Read" in text and "toolu_GONE: not in this log" in text


async def _drift_rows(store: Path, keys: tuple[str, ...], size: tuple[int, int] = (160, 40)) -> list[list[str]]:
    """The Drift tab's rows after each key pressed on its list (the first entry: before any)."""
    from textual.widgets import OptionList

    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    app = InspectorApp(store, reviewer="t")
    seen: list[list[str]] = []
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("d")
        await settle(app, pilot)
        options = app.screen.query_one("#drift-findings", OptionList)
        options.focus()
        for key in (None, *keys):
            if key:
                await pilot.press(key)
                await settle(app, pilot)
            rows = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            highlighted = options.highlighted
            seen.append([("▶ " if i == highlighted else "  ") + row for i, row in enumerate(rows)])
    return seen


async def test_results_not_in_this_log_are_one_counted_row_that_enter_opens(tmp_path: Path) -> None:
    """The real 7662d755 micro-compaction listed 42 rows all saying "not in this log": one counted
    row now, which Enter opens to the list (and closes again); End still reaches it."""
    from inspector.services.importing import import_file

    store = tmp_path / "s.db"
    await import_file(_transcript(tmp_path / "s.jsonl", ("toolu_G1", "toolu_G2", "toolu_G3")), store, actor="t")
    _, closed, opened, shut = await _drift_rows(store, ("end", "enter", "enter"))
    assert sum("not in this log" in row for row in closed) == 1 and not any("toolu_G" in row for row in closed)
    assert "(toolu_A)" in "\n".join(closed)  # a result the log holds keeps its own row
    (row,) = [row for row in closed if "not in this log" in row]
    assert "3 tool results cleared" in row and "enter" in row.casefold()
    # End reached it: it is the last row, and highlighted.
    assert closed[-1].startswith("▶ ") and "not in this log" in closed[-1]
    assert [r.strip() for r in opened if "toolu_G" in r] == ["◌ toolu_G1", "◌ toolu_G2", "◌ toolu_G3"]
    assert any(r.startswith("▶ ") and "not in this log" in r for r in opened)  # the cursor stays on it
    assert shut == closed


async def test_the_real_micro_compaction_is_one_counted_row(tmp_path: Path) -> None:
    source = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    from inspector.services.importing import import_file

    await import_file(source, tmp_path / "s.db", actor="t")
    (rows,) = await _drift_rows(tmp_path / "s.db", ())
    absent = [row for row in rows if "not in this log" in row]
    assert len(absent) == 1 and "42 tool results cleared" in absent[0]
