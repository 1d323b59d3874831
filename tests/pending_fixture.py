"""A session with many pending protected records, as a transcript's fact extraction proposes them.

Owner ``olga``. Pending versions are written by ``model`` and ``tool`` (the extractor's records
look the same to the confirm rules: pending, not written by the owner). Used by the service,
CLI and pilot tests of confirming and rejecting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.services.importing import import_file
from tests.conftest import event_record, session_record, write_sif

S = "s-pend"
OWNER = "olga"

# key, kind, value, writer, version, status — in the order the state channel lists them
RECORDS: list[tuple[str, str, str, str, int, str]] = [
    ("goal.main", "goal", "ship the export fix", "user", 1, "active"),
    ("goal.restated", "goal", "ship the export fix with a regression test", "model", 1, "pending"),
    ("constraint.no_prod", "constraint", "never touch production data", "tool", 1, "pending"),
    ("decision.db", "decision", "use streaming, not paging", "model", 1, "pending"),
    ("open_issue.p95", "open_issue", "P95 untested", "model", 1, "pending"),
    ("open_issue.retry", "open_issue", "retry policy undecided", "model", 1, "pending"),
    ("evidence_ref.a", "evidence_ref", "/repo/export/stream.py", "tool", 1, "pending"),
    ("evidence_ref.b", "evidence_ref", "/repo/export/page.py", "tool", 1, "pending"),
    ("evidence_ref.c", "evidence_ref", "/repo/tests/test_export.py", "tool", 1, "pending"),
    ("progress.steps", "progress", "2 of 5 steps done", "model", 1, "active"),
    ("progress.steps", "progress", "3 of 5 steps done", "model", 2, "pending"),
    ("failure.tests", "failure", "test_export_large failed", "tool", 1, "pending"),
]


def state(key: str, kind: str, value: str, writer: str, version: int, status: str) -> dict[str, Any]:
    return {"type": "state", "session": S, "key": key, "kind": kind, "value": value, "status": status,
            "version": version, "sources": [f"evt:{1 + version}"], "writer": writer, "scope": "task",
            "at": "2025-05-01T00:00:00Z"}


def pending_records() -> list[dict[str, Any]]:
    return [session_record(S, owner=OWNER, title="Pending facts"),
            *(event_record(n, S) for n in (1, 2, 3)),
            *(state(*r) for r in RECORDS)]


async def pending_store(tmp_path: Path, into: Path | str | None = None) -> Path | str:
    """A fresh store holding only the pending-facts session (``into``: where, default a file in ``tmp_path``)."""
    path = into or tmp_path / "pending.db"
    await import_file(write_sif(tmp_path / "pending.jsonl", pending_records()), path, actor="tester")
    return path
