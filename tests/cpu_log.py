"""Per-test CPU written to a file, to find where the suite's time goes (off unless asked).

Set ``INSPECTOR_TEST_CPU_LOG=FILE``: each test appends one tab-separated line to FILE —
node id, then for set-up, call and teardown: this process's CPU (user + sys), its waited-for
children's CPU, and wall seconds; then how many Textual apps the test started (``run_test``). ``os.times`` is read around each phase, so a test's figure
includes its fixtures' set-up (a session fixture is charged to the first test that asks for
it) and the subprocesses it waited for; a child not waited for (a server it leaves running)
is not counted. Off by default: the suite runs as it always does without the variable.
Summed with ``python -m tests.cpu_log FILE [N]`` (per file and the N costliest tests).

The test PostgreSQL server's CPU is nobody's child and was in no figure, yet a run's PostgreSQL
tests cost it more than they cost pytest (docs/benchmarks.md, Session 18). When its postmaster's
pid is known (``INSPECTOR_TEST_PG_PID``: set by ``tests/pg_cluster.running_server`` in the
process that starts it, as under ``-n 0``; printed by ``python -m tests.pg_cluster`` for a server
run by hand), a last column holds the server's CPU from the test's set-up to its teardown: the
postmaster's own and that of the backends it reaped (connections that ended, ``CREATE`` and
``DROP DATABASE``). Under xdist the workers share the server, so the column is only exact with
one process; it is ``-`` where no server is known (before the first PostgreSQL test, and for the
test during whose teardown the run's server stops: its CPU can no longer be read).
"""

from __future__ import annotations

import os
import sys
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path

import pytest

LOG_VARIABLE = "INSPECTOR_TEST_CPU_LOG"
PG_PID_VARIABLE = "INSPECTOR_TEST_PG_PID"
_PHASES: dict[str, list[float]] = {}
_SERVER: dict[str, list[float | None]] = {}
_APP_STARTS = [0]


def _now() -> tuple[float, float, float]:
    t = os.times()
    return t.user + t.system, t.children_user + t.children_system, time.perf_counter()


def _timed(item: pytest.Item, phase: str) -> Generator[None, None, None]:
    own, children, wall = _now()
    yield
    own2, children2, wall2 = _now()
    _PHASES.setdefault(item.nodeid, []).extend([own2 - own, children2 - children, wall2 - wall])


def server_cpu(pid: str | None = None) -> float | None:
    """The CPU seconds of process ``pid`` (default: the test server's) and of the children it
    reaped, or None when there is no such process (no server known, or it has stopped)."""
    pid = pid or os.environ.get(PG_PID_VARIABLE)
    if not pid:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")  # utime stime cutime cstime


def _server_spent(nodeid: str) -> str:
    before, after = (_SERVER.pop(nodeid, None) or [None, None])[:2]
    if after is None:
        return "-"
    return f"{after - (before or 0.0):.4f}"  # a server started in this test's set-up: all of it is this test's


def _count_app_starts() -> None:
    """Wrap ``App.run_test`` so that each app a test starts is counted (only when logging)."""
    from textual.app import App

    original = App.run_test

    def counted(self: App[object], *args: object, **kwargs: object) -> object:
        _APP_STARTS[0] += 1
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    App.run_test = counted  # type: ignore[assignment,method-assign]


if os.environ.get(LOG_VARIABLE):
    _count_app_starts()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
        _SERVER[item.nodeid] = [server_cpu()]
        yield from _timed(item, "setup")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
        yield from _timed(item, "call")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
        yield from _timed(item, "teardown")
        _SERVER.setdefault(item.nodeid, [None]).append(server_cpu())

    def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
        figures = _PHASES.pop(nodeid, [])
        starts, _APP_STARTS[0] = _APP_STARTS[0], 0
        with open(os.environ[LOG_VARIABLE], "a", encoding="utf-8") as log:
            log.write("\t".join([nodeid, *(f"{x:.4f}" for x in figures), str(starts), _server_spent(nodeid)]) + "\n")


def summary(path: Path, top: int) -> str:
    """Per file (CPU own + children, wall, tests, the PostgreSQL server's CPU where it was
    logged) and the ``top`` costliest tests by CPU."""
    per_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0, 0.0])
    tests: list[tuple[float, float, float, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        nodeid, *raw = line.split("\t")
        x = [float(v) for v in raw[:9]]
        own, kids, wall = sum(x[0::3]), sum(x[1::3]), sum(x[2::3])
        row = per_file[nodeid.split("::")[0]]
        row[0] += own
        row[1] += kids
        row[2] += wall
        row[3] += 1
        row[4] += float(raw[10]) if len(raw) > 10 and raw[10] != "-" else 0.0
        tests.append((own + kids, kids, wall, nodeid))
    out = [f"{'cpu':>8} {'kids':>7} {'wall':>8} {'n':>4} {'server':>7}  file"]
    for name, (own, kids, wall, n, server) in sorted(per_file.items(), key=lambda kv: -(kv[1][0] + kv[1][1])):
        out.append(f"{own + kids:8.2f} {kids:7.2f} {wall:8.2f} {int(n):4d} {server:7.2f}  {name}")
    total = [sum(r[i] for r in per_file.values()) for i in range(5)]
    out.append(f"{total[0] + total[1]:8.2f} {total[1]:7.2f} {total[2]:8.2f} {int(total[3]):4d} {total[4]:7.2f}  TOTAL")
    out.append("")
    for cpu, kids, wall, nodeid in sorted(tests, reverse=True)[:top]:
        out.append(f"{cpu:8.2f} {kids:7.2f} {wall:8.2f}  {nodeid}")
    return "\n".join(out)


if __name__ == "__main__":
    print(summary(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 100))
