"""Text a reviewer types follows one rule (docs/untrusted-content.md, deletion-ten): a reviewer's name
and a reason were refused with control, bidi or invisible characters; a protected value, a rationale,
an alternative, a new state key, a corrected summary and its unresolved markers were stored as typed —
an escape sequence or a bidi override kept in the session's history, for every later reader, export
and handoff. Now each is refused with its own code (exit 3, nothing written), in the CLI and in the
app's correction dialog (the services check it)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.ui.app import InspectorApp
from tests.test_app import settle

HOSTILE = ("ok\x1b]0;PWNED\x07", "fine\u202eenif", "zero\u200bwidth")
BASE = ["--session", "s-export", "--reason", "checked against the log", "--reviewer", "lin", "--json"]


def _files(store: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in store.parent.glob(store.name + "*")}


@pytest.mark.parametrize(("code", "args"), [
    ("value_invalid", ["correct", "--key", "goal.main", "--value", "{text}"]),
    ("rationale_invalid", ["correct", "--key", "goal.main", "--value", "new goal", "--rationale", "{text}"]),
    ("alternative_invalid", ["correct", "--key", "goal.main", "--value", "new goal", "--alternative", "plain",
                             "--alternative", "{text}"]),
    ("key_invalid", ["correct", "--key", "decision.{text}", "--kind", "decision", "--value", "use streaming"]),
    ("unresolved_invalid", ["correct-summary", "--generation", "1", "--text-file", "{file}", "--unresolved", "{text}",
                            "--save-anyway"]),
    ("summary_text_invalid", ["correct-summary", "--generation", "1", "--text-file", "{hostile_file}",
                              "--save-anyway"])])
def test_typed_text_with_escape_or_bidi_characters_is_refused(sample_store: Path, tmp_path: Path, code: str,
                                                              args: list[str]) -> None:
    before = _files(sample_store)
    for n, text in enumerate(HOSTILE):
        plain, hostile = tmp_path / f"plain{n}.txt", tmp_path / f"hostile{n}.txt"
        plain.write_text("The export times out; streaming is still open.", encoding="utf-8")
        hostile.write_text(f"The export times out. {text}", encoding="utf-8")
        argv = [args[0], str(sample_store), *(a.format(text=text, file=plain, hostile_file=hostile) for a in args[1:]),
                *BASE]
        done = CliRunner().invoke(cli, argv)
        assert done.exit_code == 3, (text, done.output)
        assert f'"{code}"' in done.output and "nothing was written" in done.output, done.output
    assert _files(sample_store) == before


def test_prose_keeps_its_line_breaks_tabs_joiners_and_a_files_crlf(sample_store: Path, tmp_path: Path) -> None:
    run = CliRunner().invoke
    done = run(cli, ["correct", str(sample_store), "--key", "goal.main", "--value", "first\nsecond\tthird",
                     "--rationale", "می\u200cخواهم 👩\u200d💻", "--alternative", "paging\r\nor batches", *BASE])
    assert done.exit_code == 0, done.output
    text = tmp_path / "fixed.txt"  # written on Windows: a byte-order mark and CR LF line ends
    text.write_bytes("\ufeffThe export times out.\r\nStreaming is still open.\r\n".encode())
    done = run(cli, ["correct-summary", str(sample_store), "--generation", "1", "--text-file", str(text),
                     "--save-anyway", *BASE])
    assert done.exit_code == 0, done.output
    with sqlite3.connect(sample_store) as con:
        (stored,) = con.execute("SELECT text FROM summaries WHERE session = 's-export' ORDER BY generation DESC").fetchone()
    assert stored == "The export times out.\nStreaming is still open.\n"  # the mark is no text of the summary


async def test_the_apps_correction_dialog_refuses_a_value_with_a_bidi_override(sample_store: Path) -> None:
    from textual.widgets import Input

    from inspector.ui.dialogs import MessageDialog

    app = InspectorApp(sample_store, session="s-export", reviewer="lin")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "c")
        await settle(app, pilot)
        app.screen.query_one("#correct-reason", Input).value = "checked against the log"
        app.screen.query_one("#correct-value", Input).value = "fix the \u202eexport"  # pasted
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog), app.screen
        assert "value_invalid" in app.screen.dialog_title
    history = CliRunner().invoke(cli, ["history", str(sample_store), "--session", "s-export", "--key", "goal.main"])
    assert history.output.count("correction") == 0
