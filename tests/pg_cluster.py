"""A throwaway PostgreSQL server for the tests and benchmarks that need one.

Started from the machine's own PostgreSQL binaries (Debian's ``postgresql`` package; `.ci/run`
installs it where it is missing) in a temporary folder, on a free loopback port, with fsync
off: the tests check behaviour, not durability of the test server. The tests' server keeps its
files in memory (``/dev/shm``) where there is room: every PostgreSQL test creates and drops a
database (a few hundred files each), and on this machine's disk each file created or removed
cost the server ~0.5 ms of system time under load (docs/benchmarks.md, Session 18). As root the server runs as
the ``postgres`` user (PostgreSQL refuses to run as root). ``INSPECTOR_TEST_PG_URL`` points the
tests at a server someone already runs instead.

Usable as a context manager (``with PgCluster.start() as url: ...``) from tests and ``bench/``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SUPERUSER = "inspector"
PID_VARIABLE = "INSPECTOR_TEST_PG_PID"  # the postmaster's pid, for tests/cpu_log.py's server column


def pg_bin_dir() -> Path | None:
    """The folder holding initdb and pg_ctl, or None when PostgreSQL is not installed."""
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(candidate, "initdb").exists() and Path(candidate, "pg_ctl").exists():
            return Path(candidate)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


def why_unavailable() -> str | None:
    """A sentence saying why no test server can be started here, or None when one can."""
    if os.environ.get("INSPECTOR_TEST_PG_URL"):
        return None
    if pg_bin_dir() is None:
        return "PostgreSQL server binaries (Debian package `postgresql`) are not installed; .ci/run installs them"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no `postgres` user to run the test server as"
    return None


MEMORY_FOLDER = Path("/dev/shm")
MEMORY_NEEDED = 2 << 30  # a run's databases (leftovers included) are a few hundred MB; leave the rest to the tests


def memory_folder() -> Path | None:
    """A folder in memory with room for a test server's files, or None (use the temporary folder)."""
    try:
        room = os.statvfs(MEMORY_FOLDER)
    except OSError:
        return None
    if room.f_bavail * room.f_frsize < MEMORY_NEEDED or not os.access(MEMORY_FOLDER, os.W_OK | os.X_OK):
        return None  # a container's default 64 MB /dev/shm, say: the disk it is
    return MEMORY_FOLDER


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_server_user(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextmanager
def running_server(*, in_memory: bool = False) -> Iterator[str]:
    """Yield the URL of a running server's ``postgres`` database; stop and remove it afterwards.
    ``in_memory``: its files in ``/dev/shm`` when that has room (the tests'; benchmarks keep the disk)."""
    given = os.environ.get("INSPECTOR_TEST_PG_URL")
    if given:
        yield given
        return
    reason = why_unavailable()
    if reason:
        raise RuntimeError(reason)
    bin_dir = pg_bin_dir()
    assert bin_dir is not None
    root = Path(tempfile.mkdtemp(prefix="inspector-pg-", dir=memory_folder() if in_memory else None))
    data, sockets = root / "data", root / "sock"
    sockets.mkdir()
    if os.geteuid() == 0:
        entry = pwd.getpwnam("postgres")
        for path in (root, sockets):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    port = _free_port()
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    subprocess.run(_as_server_user([str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER, "-A", "trust",
                                    "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]),
                   check=True, capture_output=True, env=env, cwd=root)
    options = (f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
               "-c full_page_writes=off -c max_connections=200")
    subprocess.run(_as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-w", "-t", "60", "-o", options,
                                    "-l", str(root / "server.log"), "start"]),
                   check=True, capture_output=True, env=env, cwd=root)
    os.environ[PID_VARIABLE] = (data / "postmaster.pid").read_text(encoding="utf-8").split("\n", 1)[0]
    try:
        yield f"postgresql://{SUPERUSER}@127.0.0.1:{port}/postgres"
    finally:
        os.environ.pop(PID_VARIABLE, None)
        subprocess.run(_as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, env=env, cwd=root)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":  # a server for trying things by hand: prints its URL, stops on Enter
    with running_server() as url:
        print(url, flush=True)
        if PID_VARIABLE in os.environ:  # not when INSPECTOR_TEST_PG_URL names a server of someone else's
            print(f"{PID_VARIABLE}={os.environ[PID_VARIABLE]}", file=sys.stderr, flush=True)
        input()
