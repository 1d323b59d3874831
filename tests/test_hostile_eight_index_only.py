"""An index edited alone, on a store large enough for verify's quick_check (hostile review eight).

On a store of 64 MiB or more verify runs SQLite's ``quick_check``, which reads every page but does
not compare an index with its table. The bytes ``deletion`` made ``deletioo`` on the pages of the
ledger's ``ledger_kind`` index alone (the ledger rows untouched, every hash whole): verify said ok,
and the next import of the transcript looked the session's deletions up through that index, found
none, and stored every deleted record again — the phone number back in the store, nobody told.
Now each table but the two large ones (events, material chunks) gets ``integrity_check`` with its
indexes under quick_check too (``pages_damaged``), and what stays unchecked is said in ``not_checked``.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import verifying
from inspector.store.connection import open_store
from scripts.attack_verify_eight import _index_page_bytes

AT = "2025-05-01T00:00:00Z"


def _deleted(tmp_path: Path) -> Path:
    records = [{"type": "header", "format": "sif/1"},
               {"type": "session", "id": "s1", "title": "t", "owner": "o", "created_at": AT},
               {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                "content": "call me on 13912345678"},
               {"type": "event", "session": "s1", "seq": 2, "kind": "assistant_message", "trust": "model", "at": AT,
                "content": "noted"},
               {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "mine"}]
    source, store = tmp_path / "in.jsonl", tmp_path / "s.db"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    assert CliRunner().invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r"]).exit_code == 0
    return store


async def _verify(store: Path, full: bool | None) -> verifying.VerifyReport:
    async with await open_store(store) as opened:
        return await verifying.verify_store(opened, full=full)


def test_an_index_edited_alone_is_named_under_quick_check(tmp_path: Path) -> None:
    store = _deleted(tmp_path)
    clean = asyncio.run(_verify(store, full=False))
    assert clean.ok and clean.integrity == "quick_check", clean.problems
    assert any("quick_check does not compare an index with its table" in n for n in clean.not_checked)

    edited = tmp_path / "edited.db"
    shutil.copyfile(store, edited)
    _index_page_bytes("ledger_kind", b"deletion", b"deletioo")(edited)
    for full in (False, None):  # quick_check (a large store), integrity_check (a small one)
        report = asyncio.run(_verify(edited, full=full))
        assert [p["code"] for p in report.problems] == ["pages_damaged"], (full, report.problems)
        assert "ledger_kind" in " ".join(report.problems[0]["report"])
