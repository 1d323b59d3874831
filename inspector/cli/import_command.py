"""``inspector import FILE… --into STORE``: one transcript, or several one after another.

``inspector import *.jsonl --into team.db`` — the first thing a person with a folder of
transcripts types — stopped at "Got unexpected extra arguments": it took one file. Several are
imported in turn, each all or nothing as one is; a file refused is said and the others still
import (exit 3 when any was refused); ``--json`` gives one list, a document per file.
"""

from __future__ import annotations

import getpass
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from inspector.cli.counts import counts_text
from inspector.cli.import_progress import ImportProgress
from inspector.cli.import_words import (
    SHOWN_PROBLEMS,
    next_steps,
    pending_steps,
    refuse_transcript_name,
    reviewer_option,
)
from inspector.cli.output import EXIT_OK, echo_safe, emit, json_option, json_text, lines_text, run_command
from inspector.cli.store_param import STORE
from inspector.domain.errors import InspectorError
from inspector.domain.file_name_text import text_name
from inspector.domain.formats.detect import FORMATS
from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import line_safe
from inspector.services import confirmations, grown_file, unread_lines
from inspector.services.importing import import_file, read_bytes
from inspector.store import faults
from inspector.store.connection import open_store

Said = tuple[dict[str, Any], Callable[[], list[str]]]  # the JSON document and the lines a person reads


@click.command("import")
@click.argument("files", nargs=-1, required=True, metavar="FILE...",  # a directory, FIFO or device: exit 3
                type=click.Path(path_type=Path))
@click.option("--into", "into", required=True, type=STORE, envvar="INSPECTOR_STORE",
              help="The store to import into: a file (created when missing) or a postgresql:// URL. "
                   "Defaults to $INSPECTOR_STORE.")
@click.option("--from", "fmt", type=click.Choice(FORMATS), default=None,
              help="The file's format (default: detected).")
@reviewer_option(required=False)
@json_option
@run_command()
async def import_cmd(files: tuple[Path, ...], into: Path, fmt: str | None, reviewer: str | None,
                     as_json: bool) -> int:
    """Import FILE (sif/1, Claude Code, Codex, Gemini CLI, an inspect-ai log, or a saved OpenAI / Anthropic /
    DeepSeek message list) into a store: all or nothing; re-running it is safe. Several files are imported
    one after another, each on its own."""
    actor = reviewer or getpass.getuser()
    refuse_transcript_name(into)
    unusable = faults.path_problem(into) if isinstance(into, Path) else None
    if unusable is not None:  # as every open says it (a name too long said io_error here: storefault-ten)
        raise unusable
    if len(files) == 1:
        data, human = await import_one(files[0], into, fmt, actor, as_json)
        emit(data, as_json, human)
        return EXIT_OK
    return await _import_several(files, into, fmt, actor, as_json)


async def _import_several(files: tuple[Path, ...], into: Path, fmt: str | None, actor: str, as_json: bool) -> int:
    """Each file as ``import FILE`` imports it, said as it ends; a refused one is said and passed."""
    documents: list[dict[str, Any]] = []
    code = EXIT_OK
    for file in files:
        try:
            data, human = await import_one(file, into, fmt, actor, as_json)
        except InspectorError as error:
            code = max(code, error.exit_code)
            documents.append({"file": str(file), "error": error.as_dict()})
            if not as_json:  # which file, unless the sentence names it ("empty.jsonl is empty: …")
                said = line_safe(error.message.strip())
                echo_safe(f"error: {said}" if file.name in said else f"error: {file}: {said}", err=True)
            continue
        documents.append({"file": str(file), **data})
        if not as_json:
            echo_safe(lines_text(human()))
    refused = sum(1 for d in documents if "error" in d)
    if as_json:
        click.echo(json_text(documents))
    else:
        echo_safe(f"{counted(len(files), 'file')}: {len(files) - refused} imported, {refused} refused"
                  + (" (nothing of a refused file was written)" if refused else ""))
    return code


async def import_one(file: Path, into: Path, fmt: str | None, actor: str, as_json: bool) -> Said:
    whole = read_bytes(file)
    if await grown_file.imported_before(file, into, whole, fmt):  # the agent went on: what it appended
        from inspector.cli.import_appended import import_appended

        return await import_appended(file, into, actor, as_json)
    body = grown_file.whole_lines(whole, fmt, text_name(file.name))  # a half-written last line waits
    held = grown_file.held_note(whole, body)
    with ImportProgress(file.name, enabled=not as_json) as progress:  # on a terminal, after 1 s
        report = await import_file(file, into, actor=actor, progress=progress, fmt=fmt,
                                   data=body if held else None, held_back=bool(held))
    data = report.as_dict()
    data["held_back"] = held
    async with await open_store(into) as opened:
        pending = await confirmations.pending_counts(opened, report.sessions)
        unread = {sid: await unread_lines.unread_lines(opened, sid) for sid in report.sessions}
    data["pending"] = pending
    data["unread_lines"] = {sid: [u.line for u in found] for sid, found in unread.items() if found}
    said_now = Counter(p.session for p in report.problems if p.code in unread_lines.NOT_READ)

    def human() -> list[str]:
        added = counts_text(sorted(report.added.items())) or "nothing new"
        skipped = counts_text(sorted(report.skipped.items()))  # "60002 already there" said no unit, as 39,999 events
        where = f"a new store {into}" if report.created_store else str(into)
        lines = [f"imported {file} ({report.format}) into {where}: {added}" + (f" ({skipped} already there)" if skipped else "")]
        lines += next_steps(str(into), report.sessions)
        lines += pending_steps(str(into), pending)
        for p in report.problems[:SHOWN_PROBLEMS]:
            where = f" (line {p.line})" if p.line is not None else ""  # a problem of the whole file has none
            lines.append(f"  ⚠ {p.code}{where}: {p.message.removeprefix(f'line {p.line}: ')}")  # not "(line 6): line 6:"
        for sid, found in unread.items():  # read by an earlier import of the file: not in this one's problems
            if len(found) > said_now.get(sid, 0):
                lines.append(f"  ⚠ {sid}: {unread_lines.said(found)} (`inspector check` lists them)")
        if len(report.problems) > SHOWN_PROBLEMS:  # a damaged file can have thousands: counted, the first shown
            counts = Counter(p.code for p in report.problems)
            lines.append(f"  {len(report.problems):,} lines or parts not read or odd ("
                         + ", ".join(f"{code} {n:,}" for code, n in counts.most_common()) + "); the first "
                         f"{SHOWN_PROBLEMS} are above, `--json` lists every one")
        if held:
            lines.append(f"  ⚠ {held}")
        return lines

    return data, human
