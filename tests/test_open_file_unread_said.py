"""``inspector FILE`` says the lines its import could not read, as ``inspector import`` does (review-15).

A Claude Code transcript with one line cut (`{"type":"user","message":`) printed "⚠ unreadable_line
(line 2) … it is kept in the original, not read" under ``import``; opened as ``inspector FILE``
the same import ran before the app and its report was dropped: the app never said a line was
not read."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.open_command import resolve_target
from inspector.ui.app import InspectorApp
from tests.test_app import settle


def _transcript(path: Path) -> Path:
    base = {"sessionId": "s-cut", "cwd": "/w", "version": "2.1.14"}
    lines = [json.dumps({**base, "type": "user", "uuid": "u1", "timestamp": "2025-05-01T00:00:00Z",
                         "message": {"role": "user", "content": "fix the export"}}),
             '{"type":"user","message":',
             json.dumps({**base, "type": "assistant", "uuid": "a1", "timestamp": "2025-05-01T00:01:00Z",
                         "message": {"role": "assistant", "content": [{"type": "text", "text": "On it."}]}})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


async def test_the_import_before_the_app_keeps_what_it_could_not_read(tmp_path: Path,
                                                                      monkeypatch: object) -> None:
    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(tmp_path / "cache"))  # type: ignore[attr-defined]
    notes: list[str] = []
    store = await resolve_target(_transcript(tmp_path / "cut.jsonl"), "bob", notes)
    assert store.exists()
    assert len(notes) == 1 and notes[0].startswith("unreadable_line (line 2): "), notes


async def test_the_app_says_them() -> None:
    note = "unreadable_line (line 2): the line is unreadable"
    app = InspectorApp(None, notices=[note])
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        said = [(n.title, str(n.message)) for n in app._notifications]
    assert ("Not read from the transcript", note) in said, said
