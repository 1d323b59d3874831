"""``report`` (a self-contained HTML review of one session) and ``serve`` (the app in a browser)."""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from pathlib import Path

import click

from inspector.cli import STARTED
from inspector.cli.import_progress import ProgressLine
from inspector.cli.open_command import resolve_target
from inspector.cli.output import EXIT_OK, EXIT_USAGE, emit, fail, json_option, run_command
from inspector.cli.store_commands import sole_store_argument
from inspector.cli.store_param import make_store_argument
from inspector.domain.errors import InspectorError
from inspector.domain.terminal_safe import terminal_safe
from inspector.services.report import report_data, write_report
from inspector.services.report_bounds import DEFAULT_MAX_ENTRIES
from inspector.store.connection import open_store
from inspector.store.location import ENV_STORE, StoreUrl


@click.command("report")
@sole_store_argument
@click.option("--session", required=True, help="The session to report on.")
@click.option("-o", "--output", type=click.Path(path_type=Path),  # a folder: bad_output, exit 3 (services/output_file.py)
              help="The HTML file to write (required unless --json).")
@click.option("--generation", type=click.IntRange(min=0), help="Centre on this summary generation (default: latest).")
@click.option("--max-entries", type=click.IntRange(min=0), default=DEFAULT_MAX_ENTRIES, show_default=True,
              help="Conversation entries shown: the first and last halves, the rest named as left out (0: all).")
@json_option
@run_command()
async def report_cmd(store: Path, session: str, output: Path | None, generation: int | None, max_entries: int,
                     as_json: bool) -> int:
    """Write one self-contained HTML review of a session (no script, nothing fetched; opens from file://).

    With --json, print the same data as one JSON document (and still write -o when given). A long
    session's conversation keeps its first and last entries, and a long text its head; the page
    says, at each place, what it left out (the verdicts are always computed over the whole log)."""
    if output is None and not as_json:
        click.echo("error: give -o FILE.html for the report, or --json for its data", err=True)
        return EXIT_USAGE
    # on a terminal, when it lasts more than a second (a long session judged on a loaded machine)
    with ProgressLine(f"report {session}", enabled=not as_json, since=STARTED, stage="opening the store") as progress:
        async with await open_store(store) as opened:
            progress("reading the log, judging drift and survival" + ("" if output is None else ", writing the page"))
            if output is None:
                data = await report_data(opened, session, generation, max_entries=max_entries)
            else:
                written = await write_report(opened, session, output, generation, max_entries=max_entries)
                data = written.as_dict()

    def human() -> list[str]:
        gap = data.get("conversation_left_out")
        left = [f"{gap['entries']:,} of {gap['of']:,} conversation entries left out (events #{gap['first_seq']}–"
                f"#{gap['last_seq']}); --max-entries 0 writes them all"] if gap else []
        return [f"wrote {output} ({written.bytes:,} bytes): open it in any browser, or attach it to a ticket", *left]

    emit(data, as_json, human)
    return EXIT_OK


@click.command("serve")
@make_store_argument(optional=True)
@click.option("--port", type=click.IntRange(min=1, max=65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on. Anyone who can reach it can act in the app as you: keep it local "
                   "unless you mean to share it.")
def serve_cmd(store: Path | None, port: int, host: str) -> None:
    """The app in a web browser (textual-serve): each browser tab runs its own app over STORE
    (the demo when left out; a transcript is imported beside it first, as `inspector FILE` does)."""
    from inspector.cli.serving import serve_app  # textual-serve pulls in rich: only this command needs it

    try:
        path = asyncio.run(_checked_store(store))
        if isinstance(path, StoreUrl):  # each tab's app opens it from INSPECTOR_STORE: no password in argv
            os.environ[ENV_STORE] = path.url
            command = shlex.join([sys.executable, "-m", "inspector"])
        else:
            command = shlex.join([sys.executable, "-m", "inspector", str(path.resolve())])
        serve_app(command, host, port, title=f"Context Inspector · {terminal_safe(path.name)}")  # the page shows it
    except InspectorError as error:
        fail(error, False)
        return
    raise SystemExit(EXIT_OK)


async def _checked_store(target: Path | None) -> Path:
    """The store to serve, opened once here so a wrong path fails now, with a sentence, not
    in every browser tab later."""
    path = await resolve_target(target)
    if not isinstance(path, StoreUrl) and not path.exists():
        raise InspectorError(f"no store at {path} (`inspector import FILE --into STORE` makes a store from a "
                             "transcript; `inspector serve` alone serves the demo)", code="not_a_store")
    async with await open_store(path):
        return path
