"""One throwaway PostgreSQL server for a whole pytest-xdist run, not one per worker.

Each worker used to start its own server (``initdb`` and ``pg_ctl start``: about a second of
CPU and of wall time each) the first time one of its tests needed it, while its other tests
waited. Under xdist the controller process, which runs no test, now starts one server in a
thread as the run begins, so the start overlaps the workers' own start and collection;
workers find its URL, or the sentence saying why it could not start, in a file named by
``INSPECTOR_TEST_PG_SHARED`` (set before the workers are spawned, so they inherit it). Every
worker still makes its own databases on it (their names carry the worker's process id).
Without xdist (``-n 0``) nothing changes: the ``pg_server`` fixture starts a server itself.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

ENV = "INSPECTOR_TEST_PG_SHARED"
WAIT_S = 180


class SharedServer:
    """A server started in a background thread, stopped by :meth:`stop`."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="inspector-pg-shared-"))
        self.status = self.folder / "status"
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pg-shared", daemon=True)

    def start(self) -> SharedServer:
        os.environ[ENV] = str(self.status)
        self._thread.start()
        return self

    def _run(self) -> None:
        from tests.pg_cluster import running_server

        try:
            with running_server(in_memory=True) as url:
                self._write(f"url {url}")
                self._done.wait()
        except Exception as exc:  # said to every worker, which skips its PostgreSQL tests with it
            self._write(f"error the shared test server did not start: {type(exc).__name__}: {exc}")

    def _write(self, line: str) -> None:
        partial = self.status.with_suffix(".tmp")
        partial.write_text(line, encoding="utf-8")
        partial.replace(self.status)  # a worker never reads half a line

    def stop(self) -> None:
        self._done.set()
        self._thread.join(timeout=60)
        os.environ.pop(ENV, None)
        shutil.rmtree(self.folder, ignore_errors=True)


def shared_url() -> tuple[str | None, str | None]:
    """In a worker of a run with a shared server: (its URL, None) or (None, why it is missing).
    (None, None) when this run has no shared server."""
    path = os.environ.get(ENV)
    if not path:
        return None, None
    status = Path(path)
    deadline = time.monotonic() + WAIT_S
    while not status.exists():
        if time.monotonic() > deadline:
            return None, f"the shared test server did not start within {WAIT_S} s"
        time.sleep(0.05)  # the server's start is another process's work: nothing here to wait on
    kind, _, rest = status.read_text(encoding="utf-8").partition(" ")
    return (rest, None) if kind == "url" else (None, rest)
