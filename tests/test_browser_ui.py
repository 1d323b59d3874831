"""The session browser and live follow in the app, driven as a person would (Pilot)."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.services.following import FollowStep, catch_up
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.browser_screen import BrowserScreen
from inspector.ui.dialogs import MessageDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.follow_bar import POLL_S, FollowBar
from inspector.ui.widgets.timeline_view import TimelineView
from inspector.ui.widgets.transcript_list import TranscriptList
from tests.test_app import settle

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions"
GEMINI_HASH = "7e8989f71805c3147f6be9b7a71de2a156f8face69f9380beeeb8a777414f21c"
SID = "live-0001"


def claude_line(n: int, text: str) -> str:
    return json.dumps({"type": "user", "sessionId": SID, "uuid": f"u{n}", "cwd": "/work/live",
                       "timestamp": f"2026-03-01T10:00:{n:02d}.000Z", "message": {"role": "user", "content": text}})


def codex_rollout(path: Path) -> None:
    """A Codex rollout written from its public format (no real one may be copied here)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        {"timestamp": "2026-02-02T08:00:00Z", "type": "session_meta", "payload": {"id": "cx-9", "cwd": "/work/codex"}},
        {"timestamp": "2026-02-02T08:00:01Z", "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix the bug"}]}},
        {"timestamp": "2026-02-02T08:00:05Z", "type": "compacted", "payload": {"message": "", "replacement_history": []}},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder holding transcripts where the three tools put them."""
    if not REAL.is_dir():
        pytest.skip(f"the real transcripts are not beside the project ({REAL})")
    home = tmp_path / "home"
    claude = home / ".claude" / "projects" / "-work-demo"
    claude.mkdir(parents=True)
    for src in sorted((REAL / "claude-code").glob("*.jsonl")):
        shutil.copy(src, claude / src.name)
    chats = home / ".gemini" / "tmp" / GEMINI_HASH / "chats"
    chats.mkdir(parents=True)
    shutil.copy(REAL / "gemini-cli" / "ab2b9748b105-0__session.json", chats / "session-2026-01-15T20-51-f7633853.json")
    codex_rollout(home / ".codex" / "sessions" / "2026" / "02" / "02" / "rollout-2026-02-02T08-00-00-cx-9.jsonl")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("INSPECTOR_SOURCES")
    return home


async def test_the_browser_lists_by_project_and_enter_opens_the_newest(home: Path) -> None:
    app = InspectorApp()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, BrowserScreen)
        listing = app.screen.query_one(TranscriptList)
        headers = [str(r.prompt()) for r in listing.rows if r.key is None]
        assert any("/work/codex" in h for h in headers) and any("Context Inspector" in h for h in headers)
        shown = app.screen.by_id
        assert len(shown) == 7  # five Claude Code files, one Gemini CLI file, one Codex rollout
        screen_text = str(listing.render())
        assert "fix the bug" in screen_text and "codex · 2026-02-02 08:00 → 08:00 · 396 B · 1 compaction" in screen_text
        newest = shown[listing.highlighted or ""]
        assert newest.tool == "codex" and newest.title == "fix the bug" and newest.compactions == 1
        await pilot.press("enter")  # one key opens it
        await settle(app, pilot)
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen) and app.screen.session == "cx-9"
        await pilot.press("ctrl+o")  # back to the list; ↓ and enter open the next one
        await settle(app, pilot)
        assert isinstance(app.screen, BrowserScreen)
        await pilot.press("down", "enter")
        await settle(app, pilot)
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.session == "0cf3db51-1c73-43bb-8d05-dc02739514a5"  # the Claude Code "commit this" session


async def test_search_narrows_the_list_and_enter_opens_the_match(home: Path) -> None:
    app = InspectorApp()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"color file", "enter")
        await settle(app, pilot)
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.session == "f7633853-6663-4dbb-bbf4-6159afa29df8"
        assert "not followed live" in str(app.screen.query_one(FollowBar).render())


async def test_no_transcripts_opens_the_demo_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("INSPECTOR_SOURCES")
    app = InspectorApp()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen) and app.screen.session == "s-export"


async def _until(pilot: Pilot, condition: Callable[[], bool], what: str | Callable[[], str],
                 timeout_s: float = 60) -> None:
    """Wait for ``condition``, checked every 20 ms; the timeout only guards against a hang (tests
    do not time things: under load a look can take seconds, and that is no failure)."""
    try:
        async with asyncio.timeout(timeout_s):
            while not condition():
                await pilot.pause(0.02)
    except TimeoutError:
        said = what() if callable(what) else what  # a lazy message shows the state when it failed
        raise AssertionError(f"{said} within {timeout_s}s") from None


async def test_lines_appended_while_the_app_is_open_are_imported_by_the_next_look_in_order_once(
        tmp_path: Path) -> None:
    """Each appended line is imported by the first look the bar takes after it was written, and
    the bar looks every POLL_S: what "appear within 2 s" measured with a clock, which flaked on a
    loaded machine, is checked by counting looks instead."""
    src, db = tmp_path / f"{SID}.jsonl", tmp_path / "live.db"
    src.write_text(claude_line(0, "start the export fix") + "\n", encoding="utf-8")
    await catch_up(src, db, actor="t")
    texts = [f"live line {n}" for n in range(1, 7)]
    app = InspectorApp(db, follow=src)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", "end")
        bar = app.screen.query_one(FollowBar)
        await _until(pilot, lambda: bar.follower is not None and bar.timer is not None, "the follow never started")
        assert POLL_S <= 1  # a look at least every second: an appended line shows within one look's time
        follower = bar.follower
        assert follower is not None
        written = 0  # lines written whole so far
        looks: list[tuple[int, list[str]]] = []  # per look: the lines written whole when it began, what it imported
        look = follower.poll

        async def counted() -> FollowStep:
            began = written
            step = await look()
            looks.append((began, [str(e.get("content")) for e in step.events]))
            return step

        follower.poll = counted  # type: ignore[method-assign]

        def shown() -> list[str]:
            return [r.text for r in app.screen.query_one(TimelineView).rows if r.source == "event"]

        for n, text in enumerate(texts, 1):  # as an agent appends: one line, then the next once it is shown
            line = claude_line(n, text)
            with src.open("a", encoding="utf-8") as fh:
                if n == 3:  # this one arrives in two writes: the first half waits for the rest
                    fh.write(line[:25])
                    fh.flush()
                    await _until(pilot, lambda: "of a line still being written" in str(bar.render()),
                                 "the half-written line was not seen waiting")
                    assert text not in shown()
                    fh.write(line[25:] + "\n")
                else:
                    fh.write(line + "\n")
            written = n
            await _until(pilot, lambda: text in shown(),
                         lambda: f"{text!r} never appeared; bar: {bar.render()}; rows: {shown()[-3:]}")
            first = next(imported for began, imported in looks if began == n)  # the first look begun after it
            assert first == [text], f"the first look after {text!r} imported {first}"
        timeline = app.screen.query_one(TimelineView)
        events = [r.text for r in timeline.rows if r.source == "event"]
        assert events == ["start the export fix", *texts]  # in order, each once
        assert timeline.current is not None and timeline.current.seq == timeline.rows[-1].seq  # it followed the end
        src.write_bytes(src.read_bytes()[:100])  # truncated: refused, said so, nothing merged
        await _until(pilot, lambda: isinstance(app.screen, MessageDialog), "the truncation was not said")
        assert isinstance(app.screen, MessageDialog) and "source_truncated" in app.screen.dialog_title
        bar = app.screen_stack[-2].query_one(FollowBar)
        assert bar.has_class("stopped") and "nothing was merged" in str(bar.render())
    async with await open_store(db) as store:
        assert (await verify_store(store)).ok
        count = await store.db.execute_fetchall("SELECT COUNT(*) FROM events")
        assert count[0][0] == 1 + len(texts)


async def test_at_80_columns_every_line_fits_the_first_heading_shows_and_ctrl_o_is_not_offered(home: Path) -> None:
    app = InspectorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        listing = app.screen.query_one(TranscriptList)
        lines = str(listing.render()).split("\n")
        assert lines[0].strip() == "/work/codex  1 transcript"  # the newest's project heading, not scrolled off
        assert all(len(line) <= listing.size.width for line in lines)  # long titles end in "…", never wrap
        assert any(line.endswith("…") for line in lines)
        title = str(app.screen.query_one("#browser-title").render())
        assert "~/.claude/projects" in title and str(home) not in title
        offered = {b.binding.key for b in app.screen.active_bindings.values() if b.enabled and b.binding.show}
        assert "ctrl+r" in offered and "ctrl+o" not in offered  # on the list, "look again" is ctrl+r alone


async def test_a_transcript_opened_from_the_list_is_owned_by_the_reviewer_and_the_cursor_comes_back_to_it(
        home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Opened from the list, a transcript was imported as the operating-system user, so the
    reviewer who opened it could not confirm its goal (not_owner: "only the session's owner
    (root) may confirm a goal; ana may only propose"); and ctrl+o put the cursor back on the
    first transcript instead of the one just read."""
    monkeypatch.delenv("INSPECTOR_REVIEWER", raising=False)
    config = tmp_path / "cfg"
    config.mkdir()
    (config / "reviewer").write_text("ana\n", encoding="utf-8")
    monkeypatch.setenv("INSPECTOR_CONFIG_DIR", str(config))
    app = InspectorApp()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("down")  # the Claude Code "commit this" session
        listing = app.screen.query_one(TranscriptList)
        store_path = Path(app.screen.by_id[listing.highlighted or ""].store)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(app, pilot)
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        session = app.screen.session
        async with await open_store(store_path) as store:
            rows = await store.db.execute_fetchall("SELECT owner FROM sessions WHERE id = ?", (session,))
        assert rows[0][0] == "ana"
        await pilot.press("ctrl+o")
        await settle(app, pilot)
        await settle(app, pilot)
        assert isinstance(app.screen, BrowserScreen)
        listing = app.screen.query_one(TranscriptList)
        assert app.screen.by_id[listing.highlighted or ""].session == session


async def test_text_typed_right_behind_slash_lands_in_the_transcript_search(home: Path) -> None:
    """At typing speed "/col" on the start screen lost its letters (the box stayed empty)."""
    from textual import events
    from textual.widgets import Input

    app = InspectorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, BrowserScreen)
        for key, char in (("slash", "/"), ("c", "c"), ("o", "o"), ("l", "l")):
            app.post_message(events.Key(key, char))
        await settle(app, pilot)
        box = app.screen.query_one("#browser-search", Input)
        assert box.value == "col" and app.screen.focused is box
