"""A proposed fact's key that spells a deleted e-mail makes `delete` refuse (hostile review seven).

The extractor proposes a pending goal for a later request and keys it with the start of the
request as a slug (``goal.later_request.can-you-also-cc-zz-keys-private-exam….2af627``); the
import's ledger entry lists that key for good. Before: a deletion of the request's event listed
the state record as a copy, removed it and said "done" — while two ledger entries (the import's,
and the deletion's own list of copies) kept ``zz-keys-private-exam…``, most of the address, in
the append-only ledger: no spelling the deletion compared (as written, case, escapes, encodings,
the number pattern) is the slug's. Now a sensitive value's slug in a name is that value: the key
and the entries are listed under ``kept`` and `delete` refuses ``copy_kept`` with the remedy
(a new store from an edited export), nothing changed.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

SID = "fa000000-0000-0000-0000-000000000001"
MAIL = "zz.keys.private@example.com"


def _line(n: int, role: str, text: str) -> str:
    if role == "user":
        return json.dumps({"type": "user", "sessionId": SID, "uuid": f"u{n}", "parentUuid": f"a{n - 1}" if n else None,
                           "cwd": "/w", "timestamp": f"2026-03-01T10:00:{n:02d}.000Z",
                           "message": {"role": "user", "content": text}}) + "\n"
    return json.dumps({"type": "assistant", "sessionId": SID, "uuid": f"a{n}", "parentUuid": f"u{n}", "cwd": "/w",
                       "timestamp": f"2026-03-01T10:00:{n:02d}.500Z",
                       "message": {"id": f"m{n}", "role": "assistant", "model": "m",
                                   "content": [{"type": "text", "text": text}]}}) + "\n"


def test_a_fact_key_spelling_the_value_is_kept_and_delete_refuses(tmp_path: Path) -> None:
    source, store = tmp_path / f"{SID}.jsonl", tmp_path / "k.db"
    source.write_text(_line(0, "user", "fix the export timeout") + _line(0, "assistant", "on it")
                      + _line(1, "user", f"can you also cc {MAIL} on the report?") + _line(1, "assistant", "sure"),
                      encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(source), "--into", str(store), "--reviewer", "r"]).exit_code == 0
    with sqlite3.connect(store) as con:
        keys = [k for (k,) in con.execute("SELECT key FROM state_records")]
    assert any("zz-keys-private" in k for k in keys), keys  # the extractor's key spells the address
    assert runner.invoke(cli, ["request-deletion", str(store), "evt:3", "--session", SID, "--reason", "asked",
                               "--reviewer", "r"]).exit_code == 0

    listing = json.loads(runner.invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    assert any("zz-keys-private" in k["name"] for k in listing["kept"]), listing["kept"]
    before = store.read_bytes()
    result = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 1 and [r["code"] for r in doc["refusals"]] == ["copy_kept"], doc
    assert store.read_bytes() == before
