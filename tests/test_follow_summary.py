"""``follow --summary`` ends with one JSON line saying what the run printed and why it stopped (flow-nine).

A script reading ``follow``'s events learnt the end only from the process ending: how many events,
the last seq to resume from, whether a compaction arrived and whether ``--once``, ``--timeout``, a
signal or a rewritten file ended the run were left to guess.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_follow import sif_lines, start_sif


def _lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_once_ends_with_the_counts_the_last_seq_and_why(tmp_path: Path) -> None:
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    start_sif(src, 3)
    args = ["follow", str(src), "--into", str(db), "--once", "--summary", "--reviewer", "t"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    *events, end = _lines(first.stdout)
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert end == {"type": "follow_summary", "file": str(src), "store": str(db), "session": "s1", "events": 3,
                   "first_seq": 1, "last_seq": 3, "summary_generations": [], "stopped": "once", "code": None}
    again = _lines(CliRunner().invoke(cli, args).stdout)
    assert len(again) == 1 and (again[0]["events"], again[0]["last_seq"], again[0]["session"]) == (0, None, "s1")
    src.write_bytes(src.read_bytes()[:50])
    refused = CliRunner().invoke(cli, args)
    assert refused.exit_code == 3
    error, end = _lines(refused.stdout)
    assert error["error"]["code"] == "source_truncated"
    assert (end["stopped"], end["code"], end["events"]) == ("refused", "source_truncated", 0)


def test_a_run_stopped_by_sigterm_says_so_with_the_generation_that_arrived(tmp_path: Path) -> None:
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    start_sif(src, 2)
    out = tmp_path / "out.jsonl"
    with out.open("w") as printed:  # a file, not a pipe nobody reads while the test waits
        proc = subprocess.Popen([sys.executable, "-m", "inspector", "follow", str(src), "--into", str(db),
                                 "--interval", "0.1", "--timeout", "60", "--summary", "--reviewer", "t"],
                                stdout=printed, stderr=subprocess.DEVNULL)
    try:
        def seen(n: int) -> list[dict]:
            started = time.monotonic()
            while time.monotonic() - started < 40:
                lines = _lines(out.read_text()) if out.read_text().endswith("\n") else []
                if len(lines) >= n:
                    return lines
                time.sleep(0.1)
            raise AssertionError(out.read_text())

        seen(2)
        summary = {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                   "text": "line 1 to line 3 happened", "covers": [1, 3]}
        with src.open("ab") as fh:
            fh.write(sif_lines(3, 3) + json.dumps(summary).encode() + b"\n")
        seen(3)
        time.sleep(0.5)  # the poll that imported it has finished
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    *events, end = _lines(out.read_text())
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert (end["type"], end["events"], end["last_seq"], end["summary_generations"], end["stopped"]) == \
        ("follow_summary", 3, 3, [1], "terminated")
