"""Ctrl+C at any moment of a command: one line saying what was changed, and exit 130.

A command's body (``run_command`` in output.py) already said "interrupted; nothing partial was
committed" and exited 130. Before it starts — loading click and the command's modules, parsing
the arguments, the first half second of every command — click turned the interrupt into
"Aborted!" and exit 1, and an interrupt inside a module being imported even made Python end by
re-raising the signal after that. Here the interrupt is caught at each stage (the process's
entry, the click group's parsing and invoking) and said the same way.

Python marks an interrupt that escaped a module's import as unhandled and, at exit, kills its
own process with SIGINT whatever the exit code asked for; the process's entry point
(``finish``) therefore ends with ``os._exit`` after flushing, so the code is 130 either way.
Stdlib only: the entry point uses it before click loads.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, TypeVar

EXIT_INTERRUPTED = 130
_started: list[str] = []  # the command whose body started in this invocation (at most one)
F = TypeVar("F", bound=Callable[..., Any])


class Interrupted(SystemExit):
    """Exit 130 after the line was printed (a SystemExit: click lets it through untouched)."""

    def __init__(self) -> None:
        super().__init__(EXIT_INTERRUPTED)


def message() -> str:
    if not _started:
        return "interrupted before the command started; nothing was changed"
    return (f"interrupted during `{_started[0]}`; each write is one transaction: what finished before is kept, "
            "nothing partial was committed")


def say_interrupted() -> Interrupted:
    from inspector.cli import opening_line  # stdlib only, as this module

    opening_line.quiet()
    try:
        sys.stderr.write("\n" + message() + "\n")  # the blank line ends the terminal's own "^C"
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed: the exit code still says it
        pass
    return Interrupted()


def new_invocation() -> None:
    _started.clear()


def marks_start(name: str, callback: F) -> F:
    """``callback`` noting, as it starts, that the command's body began (so the line says so)."""
    if getattr(callback, "_marks_start", False):
        return callback

    @wraps(callback)
    def started(*args: Any, **kwargs: Any) -> Any:
        _started[:] = [name]
        return callback(*args, **kwargs)

    started._marks_start = True  # type: ignore[attr-defined]
    return started  # type: ignore[return-value]


@contextmanager
def said_interrupts() -> Iterator[None]:
    """An interrupt inside becomes the line and exit 130, never click's "Aborted!" and exit 1."""
    try:
        yield
    except KeyboardInterrupt:
        raise say_interrupted() from None


def finish(run: Callable[[], Any]) -> Any:
    """The process's entry: ``run()``, with an interrupt anywhere in it (or an exit 130 already
    said) ending the process with code 130 (see the module's docstring for ``os._exit``)."""
    try:
        return run()
    except KeyboardInterrupt:
        say_interrupted()
    except SystemExit as done:  # Interrupted among them: its line was already said
        if done.code != EXIT_INTERRUPTED:
            raise
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(EXIT_INTERRUPTED)
