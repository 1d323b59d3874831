"""The progress line of a long command on stderr (its own module, stdlib only: ``inspector
FILE`` needs it before the app starts, without loading the other store commands).

Before, an import printed "reading: 0/1 records (0%)" at once on a terminal — also under
``--json`` — and then nothing while it waited (a write lock another reviewer held for 5 s, a
transcript converting on a loaded machine): the line said "reading" all along. ``report``
said nothing at all. Now a thread draws one line, only on a terminal and only when the work
lasts more than :data:`SHOW_AFTER_S`: what the command is doing now (the stage the service
last said, e.g. "waiting for the store's write lock"), its count when it has one, and the
seconds so far. The line is erased when the work ends, so the command's own output follows
on a clean line; piped or ``--json`` output never gets it.
"""

from __future__ import annotations

import atexit
import shutil
import sys
import threading
import time
from types import TracebackType
from typing import TextIO

SHOW_AFTER_S = 1.0
REDRAW_S = 0.25
ERASE = "\r\x1b[2K"


class ProgressLine:
    """``with ProgressLine("import run.jsonl", enabled=not as_json) as progress:`` — call
    ``progress(stage, done, total)`` as the work goes (``total`` 0: no count for this stage)."""

    def __init__(self, label: str, *, enabled: bool = True, stream: TextIO | None = None,
                 after_s: float | None = None, since: float | None = None, stage: str = "starting") -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and _is_tty(self.stream)
        self.label, self.after_s = label, SHOW_AFTER_S if after_s is None else after_s
        self.stage, self.done, self.total = stage, 0, 0
        self.started = time.monotonic() if since is None else since  # since: when the command began to load
        self.shown = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __call__(self, stage: str, done: int = 0, total: int = 0) -> None:
        self.stage, self.done, self.total = stage, done, total  # read by the drawing thread

    def __enter__(self) -> ProgressLine:
        if self is not _early[0]:
            stop_early()  # the command's own line takes over from the one drawn while it loaded
        if self.enabled:
            self._thread = threading.Thread(target=self._run, name="progress-line", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self.shown:
            self._write(ERASE)
            self.shown = False

    def text(self) -> str:
        count = ""
        if self.total > 0:
            count = f" {self.done:,}/{self.total:,} ({int(100 * self.done / self.total)}%)"
        return f"{self.label}: {self.stage}{count} · {time.monotonic() - self.started:.0f} s"

    def _run(self) -> None:
        if self._stop.wait(max(0.0, self.after_s - (time.monotonic() - self.started))):
            return
        drawn = ""
        while True:
            line = _fit(self.text(), shutil.get_terminal_size().columns - 1)  # a wrapped line is not erased by \r
            if line != drawn:
                self.shown, drawn = True, line
                self._write(ERASE + line)
            if self._stop.wait(REDRAW_S):
                return

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: the command itself goes on
            self._stop.set()


_early: list[ProgressLine | None] = [None]


def start_early(label: str, since: float) -> None:
    """For ``import`` and ``report`` (not ``--json``), from the entry before click and the command's
    modules load: on a loaded machine that alone took 3–4 s with nothing on the terminal. The line
    says "loading" once a second has passed; the command's own line replaces it."""
    if _early[0] is None:
        line = ProgressLine(label, since=since, stage="loading")
        _early[0] = line.__enter__()
        atexit.register(stop_early)


def stop_early() -> None:
    line, _early[0] = _early[0], None
    if line is not None:
        line.close()


def _fit(text: str, width: int) -> str:
    """The line cut to the terminal's width, its end (the stage and the seconds) kept."""
    if width <= 0 or len(text) <= width:
        return text
    return "…" + text[len(text) - width + 1:]


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class ImportProgress(ProgressLine):
    """The line of an import (``import``, ``inspector FILE`` before the app opens)."""

    def __init__(self, file_name: str = "", *, enabled: bool = True) -> None:
        from inspector.cli import STARTED

        super().__init__(f"import {file_name}".strip(), enabled=enabled, since=STARTED, stage="reading")
