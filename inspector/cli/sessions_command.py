"""``inspector sessions [STORE]``: list a store's sessions (or, with --discover, transcripts on disk).

Kept apart from the other store commands so listing loads only the store and the
session read model: the importer, checks and discovery load when asked for.
"""

from __future__ import annotations

from pathlib import Path

import click

from inspector.cli.output import EXIT_OK, emit, json_option, run_command
from inspector.cli.store_param import make_store_argument
from inspector.domain.cell_width import cells, clipped, padded
from inspector.domain.plurals import counted as _n
from inspector.domain.terminal_safe import line_safe
from inspector.services import sessions
from inspector.store.connection import open_store


@click.command("sessions")
@make_store_argument(optional=True)
@click.option("--discover", is_flag=True, help="List the transcripts found in the agent tools' folders instead.")
@click.option("--source", "sources", multiple=True, type=click.Path(path_type=Path),
              help="With --discover: a folder to look in (repeatable; default $INSPECTOR_SOURCES or the tools' own).")
@json_option
@run_command()
async def sessions_cmd(store: Path | None, discover: bool, sources: tuple[Path, ...], as_json: bool) -> int:
    """List the sessions in STORE (the demo store when STORE is left out), or with --discover
    the Claude Code, Codex and Gemini CLI transcripts on this machine, by project."""
    if discover:
        if store is not None:
            raise click.UsageError("--discover lists transcripts on disk; it takes no STORE")
        from inspector.cli.discover_output import discover_listing  # only --discover pays for discovery

        return discover_listing(sources, as_json)
    if sources:
        raise click.UsageError("--source goes with --discover")
    if store is None:
        from inspector.services import demo  # builds the demo store: needs the importer

        path = await demo.ensure_demo_store()
    else:
        path = store
    async with await open_store(path) as opened:
        items = await sessions.list_sessions(opened)
    rows = [s.as_dict() for s in items]

    def human() -> list[str]:
        lines = [f"{_n(len(rows), 'session')} in {path}"]
        # the id column as wide as the ids (a Claude Code uuid is 36 characters), up to 40: a longer
        # id (an inspect-ai sample's) takes a line of its own, so the columns stay under each other
        width = min(max([24, *(cells(line_safe(s.id)) for s in items)]), 40)
        for s in items:
            long_id = cells(line_safe(s.id)) > width
            if long_id:
                lines.append(f"  {line_safe(s.id)}")
            lines.append(f"  {padded('' if long_id else s.id, width)} ctx v{s.context_version:<3} "
                         f"goal r{s.goal_revision:<3} {s.events:>7} {'event ' if s.events == 1 else 'events'}  "
                         f"{clipped(s.title or '')}")
        return lines

    emit(rows, as_json, human)
    return EXIT_OK
