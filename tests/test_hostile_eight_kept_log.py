"""A log the inspector kept aside beside the store holds what a deletion removes (hostile review eight).

When a store's file is copied over while the store is open (a backup put back), closing it keeps
the old log aside as ``s.db-wal.TIME.kept`` instead of checkpointing it into the copy
(store/sqlite_store.py). That file is raw pages of the store: here a correction whose value holds
the e-mail of the event a request then deletes. Before: ``delete`` said "done" and named nothing,
while the kept log still held the address. Now each such log holding a value is named in the
deletion's warnings (``deletion`` and ``delete``), with what to do; other files are not.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.corrections import correct
from inspector.store.connection import open_store

AT = "2025-05-01T00:00:00Z"
MAIL = "zq.hidden.person@example.org"


async def _correct_then_restore(store: Path, backup: Path) -> None:
    async with await open_store(store) as opened:
        await correct(opened, "s1", "decision.contact", f"write to {MAIL} only", reason="r", actor="o",
                      kind="decision")
        time.sleep(1.1)
        with backup.open("rb") as fh, store.open("r+b") as out:  # `cp backup s.db` while open: same inode
            out.truncate(0)
            out.write(fh.read())
    # the close kept the log aside instead of copying it into the restored file


async def _act_after_backup(store: Path) -> None:
    async with await open_store(store) as opened:
        await correct(opened, "s1", "decision.other", "nothing private", reason="r", actor="o", kind="decision")


def test_a_kept_log_holding_the_value_is_named(tmp_path: Path) -> None:
    records = [{"type": "header", "format": "sif/1"},
               {"type": "session", "id": "s1", "title": "t", "owner": "o", "created_at": AT},
               {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                "content": f"mail me at {MAIL}"},
               {"type": "event", "session": "s1", "seq": 2, "kind": "assistant_message", "trust": "model", "at": AT,
                "content": "noted"},
               {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "mine"}]
    source, store = tmp_path / "in.jsonl", tmp_path / "s.db"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    source.unlink()
    (tmp_path / "s.db-wal.20200101T000000.kept.txt").write_text(MAIL, encoding="utf-8")  # not a kept log's name
    backup = tmp_path / "backup.db"
    shutil.copyfile(store, backup)
    # an act after the backup, checkpointed into the file: putting the backup back is a real change
    # (the same bytes written again are no change, and the log is then checkpointed as usual)
    asyncio.run(_act_after_backup(store))
    asyncio.run(_correct_then_restore(store, backup))
    [kept] = [p for p in tmp_path.iterdir() if p.name.endswith(".kept")]
    assert MAIL.encode() in kept.read_bytes()

    for args in (["deletion"], ["delete", "--reviewer", "r"]):
        result = CliRunner().invoke(cli, [args[0], str(store), "del-1", *args[1:], "--json"])
        assert result.exit_code == 0, result.output
        said = [w for w in json.loads(result.stdout)["warnings"] if "logs kept aside" in w]
        assert len(said) == 1 and kept.name in said[0] and ".kept.txt" not in said[0], said
        assert MAIL not in result.stdout
