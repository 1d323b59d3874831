"""``facts --json --with-notes`` says which events the rules read only in part (flow-nine).

The plain output ends with "note: evt:N holds … characters: its facts were proposed from its first
48,000 and last 16,000 only"; ``--json`` was the bare list of facts and said nothing of it, so a
script could not tell "no constraint in that paste" from "its middle was not read". The list stays
the default (scripts written before read it); ``--with-notes`` makes it an object with the notes.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from tests.test_facts_window import _paste


def _store(tmp_path: Path) -> Path:
    base = {"isSidechain": False, "sessionId": "s-paste", "cwd": "/x", "version": "2.0.76"}
    pasted = _paste("Never delete the backups.")
    recs = [{**base, "parentUuid": None, "type": "user", "uuid": "u1", "timestamp": "2026-01-06T14:55:06Z",
             "message": {"role": "user", "content": "Fix the export timeout."}},
            {**base, "parentUuid": "u1", "type": "user", "uuid": "u2", "timestamp": "2026-01-06T14:55:07Z",
             "message": {"role": "user", "content": pasted}}]
    src = tmp_path / "a.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in recs))
    store = tmp_path / "s.db"
    asyncio.run(import_file(src, store, actor="t"))
    return store


def test_with_notes_names_the_event_read_in_part_and_what_was_read(tmp_path: Path) -> None:
    store = _store(tmp_path)
    length = len(_paste("Never delete the backups."))
    done = CliRunner().invoke(cli, ["facts", str(store), "--session", "s-paste", "--json", "--with-notes"])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    assert set(doc) == {"session", "facts", "notes"} and doc["session"] == "s-paste" and doc["facts"]
    [note] = doc["notes"]
    assert (note["code"], note["ref"], note["seq"], note["characters"]) == ("read_in_part", "evt:2", 2, length)
    # its own words whole (the rule between the two halves of the paste too) and each paste's edges
    # (flow-19: facts_own_words); before, its first 48,000 and last 16,000 characters
    text = _paste("Never delete the backups.")
    rule = text.index("Never delete the backups.")
    assert note["own_words_read_whole"] is True
    assert any(a <= rule and rule + 25 <= b for a, b in note["read"]), note["read"]
    assert note["read"][0][0] == 0 and note["read"][-1][1] == length
    assert note["message"].startswith(f"evt:2 holds {length:,} characters: its facts were proposed from all its "
                                      "own words")


def test_plain_json_stays_the_bare_list_of_facts(tmp_path: Path) -> None:
    store = _store(tmp_path)
    bare = json.loads(CliRunner().invoke(cli, ["facts", str(store), "--session", "s-paste", "--json"]).stdout)
    noted = json.loads(CliRunner().invoke(cli, ["facts", str(store), "--session", "s-paste", "--json",
                                                "--with-notes"]).stdout)
    assert isinstance(bare, list) and bare == noted["facts"]
    plain = CliRunner().invoke(cli, ["facts", str(store), "--session", "s-paste"]).output
    assert "note: evt:2 holds" in plain
