"""Lines of a transcript an import could not read are remembered, not only said once.

Only the import that met a line it could not read said so; a re-import ("nothing new"), the app
opening the same transcript again (``inspector FILE``) and ``check`` said nothing: the
transcript looked wholly read. The store keeps each such line as an ``other`` event with its
problem code (domain/formats/tolerant.py); services/unread_lines.py counts them for all three.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.cli.open_command import resolve_target
from tests.test_open_file_unread_said import _transcript


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_a_re_import_and_check_say_the_lines_not_read(tmp_path: Path) -> None:
    source, store = _transcript(tmp_path / "cut.jsonl"), tmp_path / "s.db"
    code, first = _run("import", str(source), "--into", str(store), "--reviewer", "bob")
    assert code == 0 and "unreadable_line (line 2)" in first
    assert "could not be read" not in first  # said once, by the import that met it
    code, again = _run("import", str(source), "--into", str(store), "--reviewer", "bob")
    assert code == 0 and "nothing new" in again
    assert "1 line or part of a line of the transcript could not be read and is kept" in again and ": line 2" in again
    code, out = _run("import", str(source), "--into", str(store), "--reviewer", "bob", "--json")
    assert json.loads(out)["unread_lines"] == {"s-cut": [2]}
    code, checked = _run("check", str(store))
    assert "lines_unread" in checked and ": line 2" in checked and "? s-cut" in checked
    code, out = _run("check", str(store), "--json")
    [session] = json.loads(out)["sessions"] if isinstance(json.loads(out), dict) else json.loads(out)
    assert session["verdict"] == "unknown"
    assert [w["lines"] for w in session["warnings"] if w["code"] == "lines_unread"] == [[2]]


async def test_opening_the_transcript_again_says_them(tmp_path: Path, monkeypatch: object) -> None:
    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(tmp_path / "cache"))  # type: ignore[attr-defined]
    source = _transcript(tmp_path / "cut.jsonl")
    await resolve_target(source, "bob", [])
    notes: list[str] = []
    await resolve_target(source, "bob", notes)  # unchanged: nothing imported, the lines still not read
    assert len(notes) == 1 and "could not be read" in notes[0] and ": line 2" in notes[0], notes


async def test_the_app_header_counts_them(tmp_path: Path) -> None:
    """The app opened on the store (not on the file) said nothing of them either: the session's
    header now shows "⚠ 1 lines_unread" with the protocol badges."""
    from inspector.services.importing import import_file
    from inspector.services.overview import session_badges
    from inspector.store.connection import open_store

    store = tmp_path / "s.db"
    await import_file(_transcript(tmp_path / "cut.jsonl"), store, actor="bob")
    async with await open_store(store) as opened:
        badges = await session_badges(opened, "s-cut")
    assert badges.protocol.get("lines_unread") == 1
