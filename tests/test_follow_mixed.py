"""The live app tells the follower's imports from other writers' acts act by act, even when both
land in the same look of the change watch; and the follow line says something true from the start.

Before, a flag set before each follower import hid every act of the look that took it: another
reviewer's import committed just after the follower's was never announced ("Changed elsewhere")."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.services.following import catch_up
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.follow_bar import FollowBar
from inspector.ui.widgets.timeline_view import TimelineView
from tests.conftest import event_record, session_record
from tests.live_looks import looks
from tests.test_app import settle
from tests.test_browser_ui import SID, _until, claude_line


def changed_elsewhere(app: InspectorApp) -> list[str]:
    return [str(n.message) for n in app._notifications if n.title == "Changed elsewhere"]


async def test_a_foreign_act_in_the_same_look_as_a_follower_import_is_announced_and_the_import_is_not(
        tmp_path: Path) -> None:
    src, db = tmp_path / f"{SID}.jsonl", tmp_path / "live.db"
    src.write_text(claude_line(0, "start the export fix") + "\n", encoding="utf-8")
    await catch_up(src, db, actor="ana")
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join(json.dumps(r) for r in ({"type": "header", "format": "sif/1"},
                                                        session_record("s-bo"), event_record(1, "s-bo"))) + "\n")
    app = InspectorApp(db, follow=src, reviewer="ana")
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", "end")
        screen = app.screen
        bar = screen.query_one(FollowBar)
        timeline = screen.query_one(TimelineView)
        await _until(pilot, lambda: bar.follower is not None and bar.follower.resume is not None, "never followed")
        first = str(bar.render())
        assert "0 new events" not in first and "● following" in first and src.name in first, first

        def texts() -> list[str]:
            return [r.text for r in timeline.rows if r.source == "event"]

        # The follower alone: shown, never announced as someone else's.
        with src.open("a", encoding="utf-8") as fh:
            fh.write(claude_line(1, "live line 1") + "\n")
        await _until(pilot, lambda: "live line 1" in texts(), lambda: f"line 1 never shown: {texts()}")
        await looks(app, pilot)  # two looks of the change watch
        assert changed_elsewhere(app) == []
        assert "1 new event since opened" in str(bar.render())

        # Both in one look: the change watch held while the follower imports and bo imports too.
        screen._checking = True  # type: ignore[attr-defined]
        with src.open("a", encoding="utf-8") as fh:
            fh.write(claude_line(2, "live line 2") + "\n")
        await _until(pilot, lambda: bar.received == 2, "the follower never imported line 2")
        await import_file(other, db, actor="bo")
        screen._checking = False  # type: ignore[attr-defined]
        await _until(pilot, lambda: bool(changed_elsewhere(app)), "bo's import was never announced")
        told = changed_elsewhere(app)
        assert told == ["bo imported other.jsonl (s-bo); reloaded."], told
        await settle(app, pilot)

        # After the reload the timeline still follows the end: the next line shows, once, last.
        with src.open("a", encoding="utf-8") as fh:
            fh.write(claude_line(3, "live line 3") + "\n")
        await _until(pilot, lambda: "live line 3" in texts(), lambda: f"line 3 never shown: {texts()}")
        assert texts() == ["start the export fix", "live line 1", "live line 2", "live line 3"]
        assert timeline.current is not None and timeline.current.seq == timeline.rows[-1].seq
        assert len(changed_elsewhere(app)) == 1
