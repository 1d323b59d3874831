"""An export killed mid-way (store-fault-six): its partial file stayed beside the output and
nothing ever said so — the next export wrote over it silently, and no other command knew.

The partial file now names its writer (``FILE.PID.partial``) and the next export to that file
removes the partials of writers no longer running and says so (text and ``--json``); a partial
a running export is writing is left alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

_KILLED_MID_EXPORT = """
import asyncio, os, sys
from inspector.services import exporting
from inspector.store.connection import open_store

records = exporting.iter_records

async def some_then_killed(store, session=None):
    n = 0
    async for record in records(store, session):
        yield record
        n += 1
        if n == 20:
            os._exit(9)  # as SIGKILL, the file half written

exporting.iter_records = some_then_killed

async def main():
    async with await open_store(sys.argv[1]) as store:
        await exporting.export_sif(store, __import__("pathlib").Path(sys.argv[2]))

asyncio.run(main())
"""


def test_the_next_export_removes_and_names_a_killed_exports_partial(sample_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "x.sif"
    out.parent.mkdir()
    done = subprocess.run([sys.executable, "-c", _KILLED_MID_EXPORT, str(sample_store), str(out)], check=False)
    assert done.returncode == 9
    left = [p.name for p in out.parent.iterdir()]
    assert len(left) == 1 and left[0].endswith(".partial") and not out.exists()  # the case
    result = CliRunner().invoke(cli, ["export", str(sample_store), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"removed {left[0]}: left by an export that was stopped before it finished" in result.output
    assert [p.name for p in out.parent.iterdir()] == ["x.sif"]


def test_a_partial_of_a_running_export_is_left_and_json_names_what_was_removed(sample_store: Path,
                                                                                tmp_path: Path) -> None:
    out = tmp_path / "x.sif"
    running = out.with_name(f"x.sif.{os.getppid()}.partial")  # the test runner's parent: alive
    running.write_text("being written\n")
    legacy = out.with_name("x.sif.partial")  # what an earlier version left
    legacy.write_text("{\n")
    result = CliRunner().invoke(cli, ["export", str(sample_store), "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["stale_partials_removed"] == ["x.sif.partial"]
    assert running.exists() and not legacy.exists()
