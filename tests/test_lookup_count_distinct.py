""""The store holds a, b and N more" counts ids, not rows (review-14).

Ids are unique per session only: a store of two sessions each holding cand-a and cand-b said
"no candidate 'zzz'; the store holds cand-a, cand-b and 2 more" — there is no other id.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from tests.conftest import event_record, session_record, write_sif


def test_ids_repeated_across_sessions_are_counted_once(tmp_path: Path) -> None:
    records: list[dict[str, object]] = []
    for sid in ("s1", "s2"):
        records += [session_record(sid), event_record(1, sid, content="hello")]
        records += [{"type": "candidate", "session": sid, "id": cid, "base_version": 1, "goal_revision": 1,
                     "exact_fields": {}, "open_actions": [], "unknowns": [], "summary": "s", "sources": ["evt:1"]}
                    for cid in ("cand-a", "cand-b")]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    out = CliRunner().invoke(cli, ["validate", str(store), "zzz-none"])
    assert out.exit_code == 3, out.output
    assert "the store holds cand-a, cand-b" in out.output and "more" not in out.output, out.output
