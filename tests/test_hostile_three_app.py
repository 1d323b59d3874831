"""Third hostile round, the app: text the app did not write reaches the screen inert.

Each test feeds names and texts someone else chose (a transcript's first prompt, its project
folder, its file name, a tool name, a state key) to a place that showed them without the
sanitiser or parsed them as markup, and scans what the driver would write to the terminal.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.content import Content
from textual.widgets import Select

from inspector.services.following import catch_up
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from inspector.ui.browser_screen import BrowserScreen, entry_prompt
from inspector.ui.dialogs import MessageDialog
from inspector.ui.review_dialog import rebase_content
from inspector.ui.timeline_filter_dialog import TimelineFilterDialog
from inspector.ui.widgets.follow_bar import FollowBar
from tests.hostile import RAW_FORBIDDEN, write_hostile
from tests.test_app import settle
from tests.test_hostile_app import screen_text

OSC52 = "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07"
OSC0 = "\x1b]0;PWNED\x07"
SID = "live-0001"


def _raw(text: str) -> list[str]:
    return [raw for raw in RAW_FORBIDDEN if raw in text]


def _claude_line(text: str, cwd: str) -> str:
    return json.dumps({"type": "user", "sessionId": SID, "uuid": "u1", "cwd": cwd,
                       "timestamp": "2026-03-01T10:00:00.000Z", "message": {"role": "user", "content": text}})


@pytest.fixture
def hostile_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Claude Code transcript whose project folder, file name, cwd and first prompt hold escapes."""
    home = tmp_path / "home"
    project = home / ".claude" / "projects" / f"-work-{OSC0}x"
    project.mkdir(parents=True)
    source = project / f"a{OSC0}b.jsonl"
    source.write_text(_claude_line(f"title {OSC52} \x9b31m [bold]b[/] \u202eRLO", f"/work/ev{OSC0}il\u202e") + "\n",
                      encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("INSPECTOR_SOURCES", raising=False)
    for name in ("CACHE", "DATA", "CONFIG"):
        monkeypatch.setenv(f"INSPECTOR_{name}_DIR", str(tmp_path / name.lower()))
    return source


async def test_the_browser_shows_a_hostile_title_project_and_path_inert(hostile_home: Path) -> None:
    app = InspectorApp()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, BrowserScreen)
        text = screen_text(app)
        assert _raw(text) == [], "the transcript list wrote content escapes to the terminal"
        assert "title ␛]52;c;" in text and "[bold]b[/]" in text  # shown, readable, markup as typed


def test_a_browser_entry_keeps_a_title_with_a_line_break_on_its_line() -> None:
    from inspector.services.discovery import Found
    found = Found(path="/x/a.jsonl", tool="claude-code", project="/x", session="s", title="first\nsecond\rthird",
                  started=None, ended=None, updated=0.0, size=10, compactions=0, store="/x/s.db", imported=False,
                  changed_since_import=False)
    shown = entry_prompt(found).plain
    assert shown.split("\n")[0] == "first␊second␍third"  # the title's own line, its breaks marked


async def test_the_follow_bar_shows_a_hostile_file_name_inert_while_following_and_when_stopped(
        hostile_home: Path, tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    await catch_up(hostile_home, db, actor="t")
    app = InspectorApp(db, follow=hostile_home)
    async with app.run_test(size=(300, 40)) as pilot:
        await settle(app, pilot)
        bar = app.screen.query_one(FollowBar)
        for _ in range(100):
            if "following" in str(bar.render()):
                break
            await asyncio.sleep(0.05)
        assert "following" in str(bar.render())
        assert _raw(screen_text(app)) == [], "the follow bar wrote the file name's escapes to the terminal"
        hostile_home.write_text("x\n", encoding="utf-8")  # rewritten: following stops, naming the file
        for _ in range(100):
            if isinstance(app.screen, MessageDialog):
                break
            await asyncio.sleep(0.05)
        assert isinstance(app.screen, MessageDialog)
        assert _raw(screen_text(app)) == []
        app.pop_screen()
        await settle(app, pilot)
        assert "stopped following a␛]0;PWNED" in str(bar.render())
        assert _raw(screen_text(app)) == []


@pytest.mark.parametrize("tool", ["[/]", "[@click=app.quit]click me[/]", f"[bold]b[/bold]{OSC0}"])
async def test_a_tool_name_in_the_timeline_filter_is_text(tool: str, tmp_path: Path) -> None:
    store = tmp_path / "e.db"
    await import_file(write_hostile(tmp_path), store, actor="t")
    app = InspectorApp(store)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        app.push_screen(TimelineFilterDialog(None, [(tool, 2)]))
        await settle(app, pilot)
        select = app.screen.query_one(Select)
        select.focus()
        await pilot.press("enter")  # the list of tools opens: an unbalanced [/] raised MarkupError here
        await settle(app, pilot)
        text = screen_text(app)
        assert _raw(text) == []
        assert f"{tool.replace(OSC0, '␛]0;PWNED␇')} (2)" in text  # as typed, markup and all
        assert app.is_running


def test_the_review_dialog_shows_a_changed_state_key_inert() -> None:
    changes = {"acts": [{"ledger": 3, "kind": "state.confirmed", "what": f"constraint.{OSC52}[bold]k[/]",
                         "actor": "rita", "context_version": 2}],
               "state_versions": [f"goal.{OSC0} v2"], "events": {"known": False}}
    shown = rebase_content(None, changes, {"candidate": "c1", "base_version": 1, "goal_revision": 1})
    assert isinstance(shown, Content)
    assert "\x1b" not in shown.plain and "␛]52;c;" in shown.plain and "[bold]k[/]" in shown.plain


def test_no_widget_module_builds_content_markup_from_a_variable_without_the_sanitiser() -> None:
    """``Content.from_markup(template, var=…)`` substitutes variables as text but keeps their escapes:
    every template with variables goes through ``ui/safe.markup`` instead (the browser and the
    follow bar did not)."""
    import ast
    ui = Path(__file__).resolve().parents[1] / "inspector" / "ui"
    offenders = []
    for path in ui.rglob("*.py"):
        if path.name == "safe.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "from_markup"
                    and (node.keywords or (node.args and not isinstance(node.args[0], ast.Constant)))):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == [], offenders


def test_a_protected_value_with_line_breaks_is_one_marked_row() -> None:
    """A value's own line breaks drew extra lines in Protected state, each at the row's indent: a
    value "ok\\n✓ constraint.other …" read as a second record. They are marked (␊) instead; the
    detail pane shows the value whole."""
    from inspector.services.channels import StateRecord
    from inspector.ui.widgets.state_channel import record_line
    record = StateRecord(key="goal.main", version=1, kind="goal", value="ship it\n✓ constraint.fake\tv9\rX",
                         status="active", writer="user", at=None, scope=None, sources=[])
    shown = record_line(record).fitted(200).plain
    assert shown.count("\n") == 0 and "ship it␊✓ constraint.fake␉v9␍X" in shown
