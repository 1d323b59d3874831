"""What a new reviewer met on transcripts nobody had seen (docs/reviews/newuser-18.md).

The Drift tab's field timeline showed key names and no marks: an imported rule's key is a slug of
its words with a hash (50 characters), and the marks came after it, past the pane's edge; it called
a rule said after a generation's range lost by it; the tab opened at 80×24 scrolled past survival's
✗ lines, which no key reached. The drift rebuild said an edited file's path was in no event of the
range. After filing a deletion the notice named a key that did nothing; a reason field lost its text
to the first key typed back in it. (The rest: tests/test_newuser_18_input.py.)
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from tests.conftest import event_record, session_record, write_sif
from tests.test_app import settle

LONG_KEY = "constraint.never-push-to-main-open-a-pr-aga.e31fdb"  # as the importer names a real rule


async def _store_with_a_long_key(tmp_path: Path) -> Path:
    rule = "Never push to main; open a PR against release/2.3 instead"
    records = [session_record(owner="t"), event_record(1, content=rule),
               {"type": "state", "session": "s1", "key": LONG_KEY, "kind": "constraint", "value": rule,
                "sources": ["evt:1"], "writer": "user", "version": 1, "status": "active"},
               {"type": "state", "session": "s1", "key": "goal.main", "kind": "goal", "value": "migrate billing",
                "sources": ["evt:1"], "writer": "user", "version": 1, "status": "active"},
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                "text": "Pushed the fix to main.", "covers": [1, 1], "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t")
    return store


async def test_the_field_timeline_shows_each_keys_mark_inside_the_pane(tmp_path: Path) -> None:
    """At 80×24 (pane about 28 wide) and 120×35 (about 45), a 50-character key put its ∅ past the
    pane's edge: the reviewer saw "goal.main / constraint.never-push-to-main…" and no verdict."""
    store = await _store_with_a_long_key(tmp_path)
    for size in ((80, 24), (120, 35)):
        app = InspectorApp(store, reviewer="t")
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("d")
            await settle(app, pilot)
            lines = str(app.screen.query_one("#drift-timeline-text").render()).split("\n")
            width = app.screen.query_one("#drift-timeline").content_region.width
            rows = {key: next(line for line in lines if key[:20] in line) for key in (LONG_KEY, "goal.main")}
            for key, row in rows.items():
                seen = row[:width]
                assert "∅" in seen, (size, width, key, lines)


def test_the_rebuild_finds_an_edited_path_in_the_call_that_edited_it(tmp_path: Path) -> None:
    """``drift`` said an artifact's path was "in no event of the generation's range word for word
    (the record cites evt:2)" of the Edit call inside that range: the rebuild read events' text,
    and an edited file's path is only in the call's input."""
    path = "/home/u/proj/services/billing/migrate.py"
    records = [session_record(owner="t"), event_record(1, content="fix the time zones"),
               event_record(2, kind="tool_call", content=None, trust="model", call_id="c1", tool="Edit",
                            args={"file_path": path, "old_string": "utc=False", "new_string": "utc=True"}),
               event_record(3, kind="tool_result", content="The file has been updated.", trust="tool", call_id="c1"),
               {"type": "state", "session": "s1", "key": "artifact.migrate-py", "kind": "artifact", "value": path,
                "sources": ["evt:2"], "writer": "user", "version": 1, "status": "active"},
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                "text": "Fixed the time zones.", "covers": [1, 3], "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    said = CliRunner().invoke(cli, ["drift", str(store), "--session", "s1", "--json"]).output
    [rebuilt] = [r for r in json.loads(said)["rebuild"] if r["key"] == "artifact.migrate-py"]
    assert rebuilt["verbatim_in"] == ["evt:2"], rebuilt
    text = CliRunner().invoke(cli, ["drift", str(store), "--session", "s1"]).output
    assert f"artifact.migrate-py: “{path}” verbatim in evt:2" in text, text


async def test_the_filed_notice_names_the_keys_that_carry_the_request_out(tmp_path: Path, monkeypatch: Any) -> None:
    """After filing, the notice said "x on it in Deletions": x is the key that opens that tab (open
    already), so pressing it did nothing; enter opens the request, and x there carries it out."""
    from textual.widgets import Input

    from inspector.ui.deletion_dialog import ConfirmDeletion, DeletionDialog
    from inspector.ui.request_deletion_dialog import RequestDeletionDialog
    from inspector.ui.widgets.notice_line import NoticeLine
    from inspector.ui.widgets.timeline_view import TimelineView

    store = await _store_with_a_long_key(tmp_path)
    monkeypatch.setenv("INSPECTOR_REVIEWER", "t")
    app = InspectorApp(store, session="s1")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)
        assert app.screen.query_one(TimelineView).current is not None
        await pilot.press("D")
        await settle(app, pilot)
        assert isinstance(app.screen, RequestDeletionDialog)
        app.screen.query_one(Input).value = "the user asked"
        app.screen.query_one(Input).focus()
        await pilot.press("enter")
        await settle(app, pilot)
        notice = " ".join(str(app.screen.query_one(NoticeLine).render()).split())  # at 80×24: the notice line
        assert "Filed deletion request del-1" in notice, notice
        assert "nothing is deleted until it is carried out: enter on it in Deletions, then x." in notice, notice
        await pilot.press("enter")  # as the notice says
        await settle(app, pilot)
        assert isinstance(app.screen, DeletionDialog)
        await pilot.press("x")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmDeletion)


def _two_generations(tmp_path: Path) -> Path:
    """A rule given after the first compaction (evt:3), which the second one drops."""
    records = [session_record(owner="t"), event_record(1, content="Migrate billing to Postgres 16."),
               event_record(2, content="Never push to main."),
               event_record(3, content="Always run make lint before committing."),
               event_record(4, kind="assistant_message", trust="model", content="ok"),
               {"type": "state", "session": "s1", "key": "constraint.push", "kind": "constraint",
                "value": "Never push to main", "sources": ["evt:2"], "writer": "user", "version": 1, "status": "active"},
               {"type": "state", "session": "s1", "key": "constraint.lint", "kind": "constraint",
                "value": "Always run make lint before committing", "sources": ["evt:3"], "writer": "user",
                "version": 1, "status": "active"},
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                "text": "Migrating billing. Never push to main.", "covers": [1, 2], "sources": ["evt:1", "evt:2"]},
               {"type": "summary", "session": "s1", "generation": 2, "kind": "recursive",
                "text": "Migrating billing. Never push to main.", "covers": [1, 4], "sources": ["evt:1", "evt:2"]}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    return store


def test_the_field_timeline_does_not_call_lost_a_rule_said_after_the_generation(tmp_path: Path) -> None:
    """A rule first said after generation 1's range was ∅ missing in g1, beside "no drift found" for
    generation 1 and survival's "after its range: not judged": the same question, three answers."""
    store = _two_generations(tmp_path)
    first = json.loads(CliRunner().invoke(cli, ["drift", str(store), "--session", "s1", "--generation", "1",
                                                "--json"]).output)
    assert first["findings"] == []
    cells = first["field_timeline"]["cells"]
    assert cells["constraint.lint"] == {"1": "after", "2": "missing"}, cells
    assert cells["constraint.push"] == {"1": "kept", "2": "kept"}, cells
    said = CliRunner().invoke(cli, ["drift", str(store), "--session", "s1"]).output
    assert "constraint.lint" in said and "· ∅" in said and "first said after that generation's range" in said, said


async def test_the_drift_tab_marks_a_rule_said_after_the_generation_as_such(tmp_path: Path) -> None:
    store = await asyncio.to_thread(_two_generations, tmp_path)
    app = InspectorApp(store, reviewer="t")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("d")
        await settle(app, pilot)
        lines = str(app.screen.query_one("#drift-timeline-text").render()).split("\n")
    assert "· said after its range" in lines, lines
    [row] = [line for line in lines if line.endswith("constraint.lint")]
    assert row.split()[:2] == ["·", "∅"], lines


def _rules_lost(tmp_path: Path) -> Path:
    """Four confirmed rules a compaction dropped: survival's ✗ lines head the Drift tab."""
    rules = [f"Never touch the {w} database without a ticket from the on-call lead" for w in
             ("billing", "orders", "users", "audit")]
    records = [session_record(owner="t"), *(event_record(n + 1, content=r) for n, r in enumerate(rules)),
               *({"type": "state", "session": "s1", "key": f"constraint.rule-{n}", "kind": "constraint", "value": r,
                  "sources": [f"evt:{n + 1}"], "writer": "user", "version": 1, "status": "active"}
                 for n, r in enumerate(rules)),
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                "text": "Working on the databases.", "covers": [1, 4], "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    return store


async def test_the_drift_tab_opens_on_its_heading_and_survival_lines_at_80x24(tmp_path: Path) -> None:
    """The survival ✗ lines (check's fact_missing) sit between the generation's heading and its first
    finding; disabled, the cursor started on the finding below them and the list opened scrolled
    past them and the heading, with no key to go back up (Home and ↑ stop at the first finding)."""
    from textual.widgets import OptionList

    from inspector.ui.correction_dialog import CorrectionDialog

    store = await asyncio.to_thread(_rules_lost, tmp_path)
    app = InspectorApp(store, reviewer="t")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("d")
        await settle(app, pilot)
        listing = app.screen.query_one("#drift-findings", OptionList)
        heading = str(listing.get_option_at_index(0).prompt)
        assert heading.startswith("generation 1:"), heading
        assert listing.highlighted == 1 and str(listing.get_option_at_index(1).id).startswith("survival:")
        assert listing.scroll_y == 0, listing.scroll_y  # the heading in sight
        await pilot.press("down", "home")
        await settle(app, pilot)
        assert listing.highlighted == 1 and listing.scroll_y == 0
        await pilot.press("c")  # on a survival row: a corrected generation, as on a finding
        await settle(app, pilot)
        assert isinstance(app.screen, CorrectionDialog) and app.screen.generation == 1


async def test_typing_in_a_reason_typed_before_adds_to_it(tmp_path: Path) -> None:
    """In the correction dialog, tab to the reason, type, shift+tab to the value and tab back: the
    reason was selected on focus and the next key replaced it."""
    from textual.widgets import Input

    from inspector.ui.correction_dialog import CorrectionDialog

    store = await _store_with_a_long_key(tmp_path)
    app = InspectorApp(store, reviewer="t")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "c")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, CorrectionDialog)
        await pilot.press("tab", *"the user", "shift+tab", "tab", *" said so")
        await settle(app, pilot)
        assert dialog.query_one("#correct-reason", Input).value == "the user said so"


def test_the_cli_field_timeline_lines_up_each_keys_marks(tmp_path: Path) -> None:
    """``drift`` padded keys to 28 before the marks: every imported key is longer, so each row's
    marks stood at another column (“goal.main ✓ ✓” then “goal.later_request.also-… ∅ ∅”)."""
    store = _two_generations(tmp_path)
    said = CliRunner().invoke(cli, ["drift", str(store), "--session", "s1"]).output.splitlines()
    rows = said[said.index("field timeline (generations 1 2):") + 1:][:2]
    assert sorted(rows) == ["  · ∅  constraint.lint", "  ✓ ✓  constraint.push"], said
