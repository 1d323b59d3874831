"""The conversation view renders turns as Markdown: a character reference in content
(``&#x202E;``) is decoded by the Markdown parser after the sanitiser ran, so it must be
marked before parsing, or the override reaches the terminal raw."""

from __future__ import annotations

from pathlib import Path

from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from tests.conftest import write_sif
from tests.test_app import settle
from tests.test_hostile_app import screen_text

TEXT = "look invoice_&#x202E;txt.exe zero&#8203;width &#x2066;iso &rlm;rlm **bold**"


async def test_character_references_in_a_turn_reach_the_terminal_as_marks(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "olga")
    at = "2025-05-01T00:00:00Z"
    records = [{"type": "session", "id": "s", "title": "c", "owner": "olga", "created_at": at},
               {"type": "event", "session": "s", "seq": 1, "kind": "user_message", "trust": "user", "content": TEXT,
                "at": at},
               {"type": "event", "session": "s", "seq": 2, "kind": "assistant_message", "trust": "model",
                "content": TEXT, "at": at}]
    await import_file(write_sif(tmp_path / "c.jsonl", records), tmp_path / "c.db", actor="olga")
    app = InspectorApp(tmp_path / "c.db")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)
        await pilot.press("T")  # the conversation view
        await settle(app, pilot)
        await pilot.pause(0.5)
        text = screen_text(app)
    for raw in ("\u202e", "\u200b", "\u2066", "\u200f"):
        assert raw not in text, f"{raw!r} reached the terminal"
    assert "invoice_⟨U+202E⟩txt.exe" in text
