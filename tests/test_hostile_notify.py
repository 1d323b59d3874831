"""Notifications that quote content: shown inert, never parsed as markup.

A notification names a record key or an action id, which come from the store. Textual
parses a notification's text as markup by default, so ``[@click=app.quit]`` in a key
would become a clickable action in the toast (and a stray ``[/]`` an exception), and an
escape sequence would reach the terminal. Each notification path is driven here with
such content.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from inspector.domain.terminal_safe import is_terminal_safe
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from tests.conftest import write_sif
from tests.hostile import OSC52
from tests.test_app import settle
from tests.test_hostile_app import assert_inert

MARKUP = "[@click=app.quit]CLICK[/] [link='https://evil.example']L[/link] $var [/]"
SID = "s-notify"


def _records() -> list[dict[str, object]]:
    at = "2025-05-01T00:00:00Z"
    return [
        {"type": "session", "id": SID, "title": "notify", "owner": "olga", "created_at": at},
        {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user", "content": "go",
         "at": at},
        {"type": "state", "session": SID, "key": f"constraint.{MARKUP}{OSC52}", "kind": "constraint", "value": "v",
         "writer": "user", "sources": ["evt:1"], "version": 1},
        {"type": "action", "session": SID, "id": f"act{MARKUP}{OSC52}", "intent": "send", "status": "succeeded"},
    ]


async def test_notifications_quoting_content_show_it_as_text(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "olga")
    store = tmp_path / "n.db"
    await import_file(write_sif(tmp_path / "n.jsonl", _records()), store, actor="olga")
    app = InspectorApp(store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("1")
        records = app.screen.query_one("#state-records", OptionList)
        records.highlighted = next(i for i in range(records.option_count) if records.get_option_at_index(i).id)
        await pilot.press("space")  # an active record cannot be marked: the notice names its key
        await settle(app, pilot)
        await pilot.press("a")  # the Actions tab, so the action is known to the screen
        await settle(app, pilot)
        app.screen.reconcile_action(f"act{MARKUP}{OSC52}")  # a settled action cannot be reconciled: names its id
        await settle(app, pilot)
        assert_inert(app, "notices")
        notices = list(app._notifications)
        assert app.is_running  # no markup error, no [@click] ran
    quoting = [n for n in notices if "[@click=app.quit]CLICK[/]" in n.message]
    assert len(quoting) == 2, [n.message for n in notices]  # both notices, the content shown as typed
    for n in notices:
        assert n.markup is False and is_terminal_safe(n.message), n.message
    assert all("␛]52;" in n.message for n in quoting)


def test_a_reviewer_name_with_hidden_characters_is_refused_before_it_reaches_the_ledger(sample_store: Path) -> None:
    from click.testing import CliRunner

    from inspector.cli.main import cli

    for name in ("eve\x1b]0;PWNED\x07", "ali\u202ece", "bo\u200bb", "x\x9b2J"):
        out = CliRunner().invoke(cli, ["correct", str(sample_store), "--session", "s-export", "--key",
                                       "open_issue.p95", "--value", "v", "--reason", "r", "--reviewer", name])
        assert out.exit_code == 3 and "reviewer name" in out.stderr, (name, out.output)
        assert "\x1b" not in out.stderr
    ledger = CliRunner().invoke(cli, ["ledger", str(sample_store), "--session", "s-export", "--json"])
    assert "correction" not in [e["kind"] for e in __import__("json").loads(ledger.stdout)]  # nothing written
    ok = CliRunner().invoke(cli, ["correct", str(sample_store), "--session", "s-export", "--key", "open_issue.p95",
                                  "--value", "v", "--reason", "r", "--reviewer", "王 芳 (QA) <wf@example.com>"])
    assert ok.exit_code == 0, ok.output
