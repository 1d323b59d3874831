"""The first thing ``inspector [STORE|FILE]`` writes: a line on the terminal saying what it opens,
before the modules of the app load (stdlib only, imported by the entry before anything else).

At load 11 the app's first frame came 7.5 s after the command (Python, click, the store code and
Textual load first, then the store opens and the session is read), and the terminal stayed empty:
a reviewer could not tell a slow start from a hung one. This line comes within the entry's first
tenth of a second; the app's loading note takes over once Textual runs (ui/loading.py). It is
written without a line break and erased when the process ends (the terminal is left as it was),
before an error is said, and before a question is asked, so nothing is printed after it on its
line.
"""

from __future__ import annotations

import atexit
import sys

ERASE = "\r\x1b[2K"
_said = False


def say(text: str) -> None:
    """Write ``text`` on stderr when it is a terminal (never when piped: nothing to erase there)."""
    global _said
    try:
        if not sys.stderr.isatty():
            return
        sys.stderr.write(ERASE + text)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        return
    if not _said:
        atexit.register(clear)
    _said = True


def clear() -> None:
    """Erase the line, if one was written and not erased yet."""
    global _said
    if not _said:
        return
    _said = False
    try:
        sys.stderr.write(ERASE)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def quiet() -> None:
    """Before anything else is said on stderr (an error, a usage error, an interrupt): this line
    and the early progress line of ``import`` / ``report`` are erased, so the message starts its line."""
    clear()
    from inspector.cli import import_progress

    import_progress.stop_early()


def opens_app(args: list[str], commands: frozenset[str]) -> str | None:
    """What the line says for ``inspector PATH`` / ``inspector open PATH`` (the same routing as the
    click group: a first word that is not a command is a path to open), or None for any other
    invocation (a command, ``--help``, ``--version``, an option first)."""
    if not args or any(a in ("-h", "--help", "--version") for a in args) or args[0].startswith("-"):
        return None
    if args[0] == "open":
        paths = [a for a in args[1:] if not a.startswith("-")]
        return f"Context Inspector: opening {shown(paths[0])}…" if len(args) > 1 and paths and \
            not args[1].startswith("-") else None
    if args[0] in commands:
        return None
    return f"Context Inspector: opening {shown(args[0])}…"


def shown(path: str) -> str:
    """The file's name, its control characters left out (it is written to a terminal)."""
    if path.startswith(("postgresql:", "postgres:")):  # a URL may hold a password: never written out
        return "the PostgreSQL store"
    name = path.rstrip("/").rsplit("/", 1)[-1] or path
    return "".join(ch for ch in name if ch.isprintable())[:80]
