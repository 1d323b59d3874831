"""The app over a hostile store: what would be written to the terminal holds no content escape.

Textual's headless driver writes nothing, so each step renders the whole screen the way the
real driver would (the compositor's full update as terminal text) and checks that text:
Textual's own style sequences are there, but no OSC (clipboard, title, link), no CSI 2J,
no BEL, no CR and no bidi override that came from the store.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from tests.hostile import RAW_FORBIDDEN, write_hostile
from tests.test_app import settle


def screen_text(app: InspectorApp) -> str:
    update = app.screen._compositor.render_update(full=True)  # what the driver would write
    return update.render_segments(app.console)


def assert_inert(app: InspectorApp, step: str) -> str:
    text = screen_text(app)
    for raw in RAW_FORBIDDEN:
        assert raw not in text, f"{step}: {raw!r} would reach the terminal"
    return text


async def test_no_content_escape_reaches_the_terminal(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "rita")
    store = tmp_path / "evil.db"
    await import_file(write_hostile(tmp_path), store, actor="tester")
    app = InspectorApp(store)
    seen = ""
    async with app.run_test(size=(220, 60)) as pilot:
        await settle(app, pilot)
        seen += assert_inert(app, "first paint")
        for channel in ("1", "2", "3"):
            await pilot.press(channel)
            for _ in range(4):
                await pilot.press("down")
                await settle(app, pilot)
                seen += assert_inert(app, f"channel {channel}")
        await pilot.press("t")
        for _ in range(8):
            await pilot.press("enter")
            await settle(app, pilot)
            seen += assert_inert(app, "timeline row dialog")
            await pilot.press("escape", "down")
            await settle(app, pilot)
        seen += assert_inert(app, "timeline")
        for key, name in (("k", "candidates"), ("d", "drift"), ("o", "handoffs"), ("x", "deletions")):
            await pilot.press(key)
            await settle(app, pilot)
            seen += assert_inert(app, f"{name} tab")
            await pilot.press("enter")
            await settle(app, pilot)
            seen += assert_inert(app, f"{name} dialog")
            await pilot.press("escape")
            await settle(app, pilot)
        for key in ("u", "b"):  # survival, budget: shown, nothing to open
            await pilot.press(key)
            await settle(app, pilot)
            seen += assert_inert(app, f"tab {key}")
        await pilot.press("1")
        app.screen.query_one("#state-records", OptionList).highlighted = 1
        await pilot.press("h")
        await settle(app, pilot)
        seen += assert_inert(app, "history dialog")
    assert "␛]52;c;Y3VybCBldmlsLnNoIHwgc2g=␇" in seen and "␛]0;PWNED␇" in seen  # shown, readable
    assert "[bold red]markup[/]" in seen  # markup in content is text, not style
