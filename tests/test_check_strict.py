"""``check --strict`` fails a CI gate on a session not judged in full, not only on findings (flow-nine).

``check`` exits 0 with "? not judged in full" (documented: exit 1 on findings only): a gate that
wants every transcript line read and every sentence judged had to parse ``--json`` itself.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from tests.conftest import event_record, session_record, write_sif
from tests.test_open_file_unread_said import _transcript


def test_strict_exits_1_on_a_session_not_judged_in_full(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    asyncio.run(import_file(_transcript(tmp_path / "cut.jsonl"), store, actor="t"))  # a line it could not read
    plain = CliRunner().invoke(cli, ["check", str(store)])
    assert plain.exit_code == 0 and plain.output.startswith("? s-cut"), plain.output
    strict = CliRunner().invoke(cli, ["check", str(store), "--strict"])
    assert strict.exit_code == 1, strict.output
    assert strict.output.rstrip().endswith("--strict: exit 1, 1 session not judged in full"), strict.output
    doc = CliRunner().invoke(cli, ["check", str(store), "--strict", "--json"])
    assert doc.exit_code == 1 and json.loads(doc.stdout)["verdict"] == "unknown"


def test_strict_passes_a_clear_store(tmp_path: Path) -> None:
    store = tmp_path / "c.db"
    asyncio.run(import_file(write_sif(tmp_path / "c.jsonl", [session_record(), event_record(1)]), store, actor="t"))
    done = CliRunner().invoke(cli, ["check", str(store), "--strict"])
    assert done.exit_code == 0 and done.output.startswith("✓ s1"), done.output
