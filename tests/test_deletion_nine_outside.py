"""A file beside the store holding a deleted value in another spelling is named (hostile review nine).

Before: the files of the store's folder (exports, reports, notes a tool wrote there) were read for
each value as written, JSON- or HTML-escaped only. A ``notes.json`` holding the e-mail as
``\\u0040``, a report holding it ROT13-ed, or a log holding the phone number in Chinese numerals
was not named, and the deletion's warnings said nothing of them. Now a file of up to 8 MiB is
also read in every spelling the store is read in; a file holding none is not named.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
SID = "s-outside"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"


def test_a_file_beside_the_store_holding_another_spelling_is_named(tmp_path: Path) -> None:
    records = [{"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
               {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                "content": f"call {PHONE} mail {MAIL}"},
               {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "mine"}]
    folder = tmp_path / "work"
    folder.mkdir()
    store = folder / "s.db"
    source = write_sif(tmp_path / "in.jsonl", records)  # the transcript elsewhere: not beside the store
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    (folder / "notes.json").write_text(json.dumps({"contact": MAIL.replace("@", "\\u0040")}), encoding="utf-8")
    (folder / "old-report.html").write_text(f"<p>{codecs.encode(MAIL, 'rot13')}</p>", encoding="utf-8")
    (folder / "calls.jsonl").write_text(json.dumps({"to": "一三九一二三四五六七八"}, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    (folder / "harmless.json").write_text(json.dumps({"note": "zq.other.person@example.org 一三九一二三四五六七九"},
                                                     ensure_ascii=False), encoding="utf-8")
    listing = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    beside = next((w for w in listing["warnings"] if w.startswith("files beside the store hold a value")), "")
    named = sorted(name for name in ("notes.json", "old-report.html", "calls.jsonl", "harmless.json") if name in beside)
    assert named == ["calls.jsonl", "notes.json", "old-report.html"], listing["warnings"]
