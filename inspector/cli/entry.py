"""The ``inspector`` console script: the bare command starts listing transcripts at once.

``inspector`` with no argument (or only ``--source DIR`` options) is the start screen; it
should list a thousand transcripts within a second, so this path starts looking for them
in a thread before the app's modules load, and loads neither the other commands nor the
store code until they are needed. Every other invocation is the click group, as before.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def _bare_sources(args: list[str]) -> list[Path] | None:
    """The --source folders of a bare invocation, or None when it is not one."""
    sources: list[Path] = []
    rest = list(args)
    while rest:
        if rest[0] == "--source" and len(rest) > 1:
            sources.append(Path(rest[1]))
            rest = rest[2:]
        elif rest[0].startswith("--source="):
            sources.append(Path(rest[0].split("=", 1)[1]))
            rest = rest[1:]
        else:
            return None
    return sources


def main(argv: list[str] | None = None) -> Any:
    """Ctrl+C at any point ends with one line and exit 130 (cli/interrupts.py), not a traceback
    or click's "Aborted!"."""
    from inspector.cli.interrupts import finish

    return finish(lambda: _main(argv))


def _main(argv: list[str] | None) -> Any:
    args = sys.argv[1:] if argv is None else argv
    sources = _bare_sources(args)
    if argv is None:  # the process itself (not a test calling main): say at once what is being opened
        from inspector.cli import opening_line
        from inspector.cli.command_names import NAMES

        said = ("Context Inspector: looking for transcripts…" if sources is not None
                else opening_line.opens_app(args, NAMES))
        if said is not None:
            opening_line.say(said)
        elif args[:1] in (["import"], ["report"]) and "--json" not in args and "--help" not in args:
            from inspector.cli import STARTED
            from inspector.cli.import_progress import start_early

            start_early(f"inspector {args[0]}", STARTED)  # a line after 1 s, while the command loads
    if sources is None:
        from inspector.cli.main import main as cli_main

        return cli_main(args)
    # neither click nor the other commands load on this path
    from inspector.cli.listing import start_listing
    from inspector.domain.errors import InspectorError

    try:
        listing = start_listing(tuple(sources))
    except InspectorError as error:
        from inspector.cli.output import fail

        fail(error, False)
        return None
    from inspector.ui.app import InspectorApp
    from inspector.ui.served import end_process_soon

    try:
        InspectorApp(None, sources=sources, listing=listing).run()
    finally:  # however the app ended (a served one's pipe closed can raise out of run())
        end_process_soon()  # a connection a cancelled worker left open must not keep the process
    raise SystemExit(0)
