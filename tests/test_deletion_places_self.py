"""The warning about a line many events repeat never counts the target itself (review-15).

A request for one event of the real Claude Code transcript (evt:3, one line its later
messages repeat) said "10 other events repeat line 1 of evt:3 (evt:3, evt:57, …)": the
target was found again by the value scan and counted as one of the "other" events."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from tests.conftest import event_record, session_record, write_sif

LINE = "please look at the checkout page again"


def test_the_target_is_not_one_of_the_other_events(tmp_path: Path) -> None:
    records = [session_record(), *(event_record(n, content=LINE) for n in range(1, 5)),
               {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "asked"}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    doc = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    shared = [w for w in doc["warnings"] if "other events repeat" in w]
    assert shared and shared[0].startswith("3 other events repeat line 1 of evt:1 (evt:2, evt:3, evt:4)"), shared
