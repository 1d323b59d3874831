"""``inspector follow FILE``: import a growing transcript as it grows, printing new events.

For scripts: every event this command adds to the store is printed once, as one JSON line
(the sif/1 event record), in order — first what was not imported yet, then each batch as
the agent appends it. A rewritten or truncated file ends the command with exit 3 and a
JSON ``{"error": …}`` line; nothing is merged. With ``--summary`` the run ends with one
``{"type": "follow_summary", …}`` line: the events printed, the last ``seq``, the summary generations
that arrived and why it stopped (cli/follow_summary.py). Opt-in: scripts written before it read every
line as an event, and a refused run's stdout as one ``{"error": …}`` object.
"""

from __future__ import annotations

import asyncio
import getpass
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

import click

from inspector.cli.follow_summary import FollowTally, compaction_arrived
from inspector.cli.import_words import reviewer_option
from inspector.cli.open_command import store_beside
from inspector.cli.output import EXIT_OK, run_command
from inspector.cli.store_param import STORE
from inspector.domain.errors import BadInput, InspectorError
from inspector.domain.formats.detect import detect
from inspector.domain.formats.tail import APPENDABLE
from inspector.domain.protocol import ProtocolProblem
from inspector.domain.terminal_safe import json_safe, line_safe
from inspector.services.following import Follower, catch_up
from inspector.services.reading import open_regular


def _warn(problems: list[ProtocolProblem]) -> None:
    """A value a carried-out deletion removed, back in a new event: one line each on stderr (stdout
    stays the events' JSON lines a script reads)."""
    for problem in problems:
        click.echo(f"⚠ {problem.code}: {line_safe(problem.message)}", err=True)


def _print(event: dict[str, Any], tally: FollowTally | None = None) -> None:
    if tally is not None:
        tally.saw(event)
    # json_safe: C1 controls, bidi and invisible characters \u-escaped like the C0 ones json escapes itself
    click.echo(json_safe(json.dumps(event, ensure_ascii=False, separators=(",", ":"))))
    sys.stdout.flush()


@click.command("follow")
@click.argument("file", type=click.Path(path_type=Path))  # a directory: not_a_file (exit 3), as import says
@click.option("--into", "into", type=STORE,
              help="The store to keep up to date, a file or a postgresql:// URL (default: the one `inspector FILE` "
                   "uses).")
@click.option("--interval", type=click.FloatRange(min=0.05), default=0.5, show_default=True,
              help="Seconds between looks at the file.")
@click.option("--once", is_flag=True, help="Import what is there, print it, and stop (no waiting).")
@click.option("--timeout", type=click.FloatRange(min=0), help="Stop after this many seconds.")
@reviewer_option(required=False)
# every other command takes --json; a script passing it here too was a usage error ("No such option")
@click.option("--json", "json_lines", is_flag=True, hidden=False,
              help="Accepted for scripts: the output is JSON lines with or without it.")
@click.option("--summary", "summary", is_flag=True,
              help='End with one {"type": "follow_summary", …} line: events printed, first and last seq, summary '
                   "generations that arrived, why it stopped (once, timeout, interrupted, terminated, refused + code).")
@run_command()
async def follow_cmd(file: Path, into: Path | None, interval: float, once: bool, timeout: float | None,
                     reviewer: str | None, json_lines: bool, summary: bool) -> int:
    """Import FILE's new lines as an agent appends them; print each new event as a JSON line, and
    at the end one {"type": "follow_summary", …} line: events, last seq, why it stopped."""
    tally = FollowTally(file)
    stop = asyncio.Event()  # SIGTERM: stop between looks and say so, as --timeout does
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
        pass
    try:
        code, stopped = await _follow(file, into, interval, once, timeout, reviewer, tally, stop)
    except InspectorError as error:
        _print({"error": error.as_dict()})  # the script reading stdout learns why it ended
        if summary:
            _print(tally.line("refused", error.code))
        raise
    except asyncio.CancelledError:  # Ctrl+C: what was printed so far, then the usual interrupted line
        if summary:
            _print(tally.line("interrupted"))
        raise
    finally:
        try:
            loop.remove_signal_handler(signal.SIGTERM)
        except (NotImplementedError, RuntimeError, ValueError):
            pass
    if summary:
        _print(tally.line(stopped))
    return code


async def _pause(stop: asyncio.Event, seconds: float) -> bool:
    """Wait ``seconds``; True when SIGTERM asked the run to stop meanwhile."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        return False
    return True


async def _follow(file: Path, into: Path | None, interval: float, once: bool, timeout: float | None,
                  reviewer: str | None, tally: FollowTally, stop: asyncio.Event) -> tuple[int, str]:
    """The run; returns its exit code and why it stopped (``once``, ``timeout``, ``terminated``)."""
    actor = reviewer or getpass.getuser()
    try:
        with open_regular(file) as fh:  # a FIFO or /dev/zero is refused at once (not_a_file), never waited on
            head = fh.read(1 << 16)
    except OSError as exc:
        raise BadInput(f"cannot read {file}: {exc.strerror}", code="unreadable") from None
    try:
        fmt = detect(head, file.name) if head.strip() else "sif"
    except BadInput:
        if len(head) < 1 << 16 or b"\n" in head:
            raise
        # only the first 64 KiB were read: a whole-document file (a message list) is cut there, not malformed
        raise BadInput(f"{file.name} has no line end in its first 64 KiB: it is not a transcript of lines (sif/1, "
                       "Claude Code, Codex), so it cannot be followed; import or open it instead",
                       code="not_appendable") from None
    if fmt not in APPENDABLE:
        article = "an" if fmt[:1] in "aeiou" else "a"
        raise BadInput(f"{file.name} is {article} {fmt} file, which its tool rewrites as a whole rather than appending to, "
                       "so it cannot be followed; open or import it instead", code="not_appendable")
    if into is not None:
        from inspector.cli.import_words import refuse_transcript_name

        refuse_transcript_name(into)
    store_path = tally.store = into or store_beside(file)
    store_path.parent.mkdir(parents=True, exist_ok=True)
    caught = await catch_up(file, store_path, actor=actor)
    _warn(caught.returned)
    if caught.session is None and once:
        return EXIT_OK, "once"
    deadline = None if timeout is None else time.monotonic() + timeout
    while caught.session is None:  # not one complete line yet: wait for the first
        if deadline is not None and time.monotonic() >= deadline:
            return EXIT_OK, "timeout"
        if await _pause(stop, interval):
            return EXIT_OK, "terminated"
        caught = await catch_up(file, store_path, actor=actor)
        _warn(caught.returned)
    follower = await Follower.open(store_path, file, actor=actor)
    async with follower.store:  # closed at the end; a read failing on a backup put back is said as that copy
        assert follower.resume is not None
        tally.session = follower.resume.session
        for event in await follower.events_after(follower.resume.seq - caught.added_events):
            _print(event, tally)
        latest = follower.resume.generation  # a compaction the catch-up imported arrived too (review-17)
        _compacted(latest - caught.generations, latest, follower.resume.session, store_path)
        tally.generations += range(latest - caught.generations + 1, latest + 1)
        while not once and (deadline is None or time.monotonic() < deadline):
            if await _pause(stop, interval):
                return EXIT_OK, "terminated"
            generation = follower.resume.generation
            step = await follower.poll()
            for event in step.events:
                _print(event, tally)
            _warn(step.returned)
            _compacted(generation, follower.resume.generation, follower.resume.session, store_path)
            tally.generations += range(generation + 1, follower.resume.generation + 1)
    return EXIT_OK, "once" if once else "timeout"


def _compacted(before: int, now: int, session: str, store: Path) -> None:
    """A compaction arriving mid-follow made a summary generation: said on stderr with how to judge it
    (stdout stays the events' JSON lines). Only its events were printed, so a script's reader learnt
    nothing of the new generation that drift and survival now judge (new-user-16)."""
    if now > before:
        click.echo(compaction_arrived(now, session, store), err=True)
