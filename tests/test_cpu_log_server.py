"""The per-test CPU log's server column: what it reads and how the summary adds it up.

The PostgreSQL server's CPU was in no figure while it cost more than the tests' own
(docs/benchmarks.md, Session 18); a column that read the wrong process, or a summary that
dropped it, would send the next person measuring after the wrong cost.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import cpu_log


def _line(nodeid: str, own: float, server: str | None) -> str:
    figures = [own, 0.0, 1.0] + [0.0, 0.0, 0.0] * 2
    return "\t".join([nodeid, *(f"{x:.4f}" for x in figures), "0", *([server] if server is not None else [])])


def test_the_summary_adds_the_server_column_per_file_and_reads_older_logs(tmp_path: Path) -> None:
    log = tmp_path / "cpu.log"
    log.write_text("\n".join([_line("tests/test_a.py::one", 0.5, "1.2500"), _line("tests/test_a.py::two", 0.5, "-"),
                              _line("tests/test_a.py::three", 0.5, "0.2500"),
                              _line("tests/test_b.py::old", 2.0, None)]) + "\n", encoding="utf-8")
    rows = cpu_log.summary(log, 0).splitlines()
    assert rows[0].split() == ["cpu", "kids", "wall", "n", "server", "file"]
    assert rows[1].split() == ["2.00", "0.00", "1.00", "1", "0.00", "tests/test_b.py"]  # no column: a log from before
    assert rows[2].split() == ["1.50", "0.00", "3.00", "3", "1.50", "tests/test_a.py"]
    assert rows[3].split() == ["3.50", "0.00", "4.00", "4", "1.50", "TOTAL"]


def test_the_server_figure_counts_the_children_it_reaped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A postmaster's backends are its children: their CPU counts once they have ended."""
    monkeypatch.delenv(cpu_log.PG_PID_VARIABLE, raising=False)
    assert cpu_log.server_cpu() is None  # no server known: nothing, not zero
    assert cpu_log.server_cpu("999999999") is None  # a server gone
    before = cpu_log.server_cpu(str(os.getpid()))
    subprocess.run([sys.executable, "-c", "sum(i * i for i in range(3_000_000))"], check=True)
    monkeypatch.setenv(cpu_log.PG_PID_VARIABLE, str(os.getpid()))
    after = cpu_log.server_cpu()
    assert before is not None and after is not None
    assert after - before >= 0.05  # the child's own CPU, reaped by this process
