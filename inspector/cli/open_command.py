"""``inspector [STORE|FILE.jsonl]``: open the terminal app on a store."""

from __future__ import annotations

import asyncio
import getpass
import os
import shlex
import stat
import sys
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

import click

from inspector.cli.output import EXIT_OK, fail, not_text
from inspector.cli.store_param import STORE
from inspector.domain.errors import InspectorError
from inspector.services import reviewer_name
from inspector.store.location import ENV_STORE, StoreUrl
from inspector.store.schema import APPLICATION_ID

if TYPE_CHECKING:
    from inspector.services import discovery

SIF_SUFFIXES = {".jsonl", ".json", ".ndjson", ".yaml", ".yml", ".eval"}  # files to import (or refuse) rather than open


def _writable(folder: Path) -> bool:
    """Writable for us *and* meant to be written: root passes os.access on a folder without write
    bits, and a read-only folder of shared transcripts must stay untouched."""
    try:
        mode = folder.stat().st_mode
    except OSError:
        return False
    return os.access(folder, os.W_OK) and bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def store_beside(file: Path) -> Path:
    """Where ``inspector FILE`` keeps its store: beside the file, or in the cache if that is read-only."""
    beside = file.with_name(file.name + ".inspector.db")
    if _writable(file.parent):
        return beside
    from inspector.services import discovery

    return discovery.opened_in_cache(file)


def _is_store(path: Path) -> bool:
    if not path.is_file():  # a FIFO would block this read forever; a folder or device is refused by open_store
        return False
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
    except OSError:
        return False
    return head.startswith(b"SQLite format 3\x00") and int.from_bytes(head[68:72], "big") == APPLICATION_ID


async def _opens(store: Path) -> str | None:
    """Open and close the store once, so bad input is refused before any screen is drawn; a
    format upgrade this open makes (a PostgreSQL store's) is said on stderr now and by the app when
    it is up. An older store file is read through an upgraded copy and upgraded by its first act in
    the app (store/held_upgrade.py), which says so; not upgraded, it is said left at its format
    on stderr when the app ends."""
    from inspector.cli import upgrade_said
    from inspector.store.connection import open_store

    upgrade_said.start()
    try:
        opened = await open_store(store)  # an older store is not upgraded by looking: its first act upgrades it
    finally:  # a store the running app opens later says its upgrade in a notice: stderr would garble the screen
        upgrade_said.quiet()
    await opened.close()
    return str(opened.format_upgraded["message"]) if opened.format_upgraded else None


def importer_name(explicit: str | None) -> str:
    """Who imports (and so owns) a transcript opened as a file: the reviewer when known; asked once on
    a terminal and remembered; the operating-system user only when nobody can be asked."""
    known = reviewer_name.resolve(explicit)
    if known:
        return known
    if sys.stdin.isatty():
        from inspector.cli import opening_line

        opening_line.clear()  # the question starts its own line
        name = click.prompt("Who is reviewing? (recorded with every write; remembered)", type=str).strip()
        if name and reviewer_name.name_problem(name) is None:
            reviewer_name.remember(name)
            return name
    return getpass.getuser()


async def resolve_target(target: Path | None, reviewer: str | None = None, notes: list[str] | None = None) -> Path:
    """The store to open: the demo, the store given, or a store the given file is imported into;
    ``notes`` gets what that import could not read (the app says it, as `import` prints it)."""
    # loaded here, not at the top: the bare `inspector` start screen does not need them
    from inspector.cli.import_progress import ImportProgress
    from inspector.services.following import catch_up

    if target is None:
        from inspector.services import demo

        return await demo.ensure_demo_store()
    if isinstance(target, StoreUrl):  # a PostgreSQL store: opened as it is
        return target
    if _is_store(target) or target.suffix.lower() not in SIF_SUFFIXES:
        return target
    store = store_beside(target)
    if not store.exists():  # opened from the start screen before: that store, not a second one of the session
        from inspector.services import discovery

        listed = discovery.store_for(target, discovery.data_dir() / "stores")
        store = listed if listed.is_file() else store
    store.parent.mkdir(parents=True, exist_ok=True)
    # a first import, or only what was appended since the last one (a rewritten file is refused)
    actor = importer_name(reviewer)  # asked before the progress line may draw over the question
    with ImportProgress(target.name) as progress:
        caught = await catch_up(target, store, actor=actor, progress=progress)
    if notes is not None:
        notes += [f"{p.code} (line {p.line}): {p.message.removeprefix(f'line {p.line}: ')}" for p in caught.unread]
        if caught.held:  # a half-written last line: the app follows the file, and reads it when it is whole
            from inspector.services.grown_file import FOLLOWED, LATER

            notes.append(caught.held.replace(LATER, FOLLOWED))
        if not caught.unread and caught.session is not None:  # read by an earlier import: remembered, said again
            notes += await _unread_before(store, caught.session)
    from inspector.cli import opening_line

    opening_line.say(f"Context Inspector: opening {opening_line.shown(str(target))}…")  # the progress line erased it
    return store


async def _unread_before(store: Path, session: str) -> list[str]:
    """What an earlier import of the file could not read (services/unread_lines.py): opening the
    same transcript again said nothing of it, as if every line had been read."""
    from inspector.services import unread_lines
    from inspector.store.connection import open_store

    async with await open_store(store) as opened:
        found = await unread_lines.unread_lines(opened, session)
    return [f"{unread_lines.said(found)} (`inspector check` lists them)"] if found else []


def start_listing(sources: tuple[Path, ...]) -> Future[list[discovery.Found]]:
    """Look for transcripts in a thread (inspector.cli.listing), while the UI's modules load."""
    from inspector.cli.listing import start_listing as start

    return start(sources)


@click.command("open")
@click.argument("target", required=False, type=STORE, envvar=ENV_STORE)
@click.option("--session", help="Open on this session (default: the first).")
@click.option("--source", "sources", multiple=True, type=click.Path(path_type=Path),
              help="With no TARGET: a folder of transcripts to list (repeatable; default $INSPECTOR_SOURCES or the "
                   "agent tools' own folders).")
@click.option("--reviewer", help="Record acts under this name (default: $INSPECTOR_REVIEWER, then the remembered "
              "name; asked at the first write).")
def open_cmd(target: Path | None, session: str | None, sources: tuple[Path, ...] = (),
             reviewer: str | None = None) -> None:
    """Open STORE, or import FILE.jsonl (only what was appended since, when it was imported before) and
    open it following it live; with neither, the transcripts found on this machine (or the demo)."""
    if target is not None and sources:
        raise click.UsageError("--source lists transcripts to choose from; it goes without a TARGET")
    follow: Path | None = None
    listing: Future[list[discovery.Found]] | None = None
    notes: list[str] = []  # what importing FILE could not read, said by the app when it is up
    upgraded: str | None = None  # the store format upgrade its first open made: said by the app too
    try:
        not_text({"session": session, "reviewer": reviewer})
        if target is None:
            listing = start_listing(sources)  # while the UI's modules load
            store = None
        else:
            if isinstance(target, Path) and target.is_dir():  # said "is a folder, not a store file", no way on
                quoted = shlex.quote(str(target))
                raise InspectorError(f"{target} is a folder, not a store file; the transcripts in it: "
                                     f"`inspector --source {quoted}` (in the app) or "
                                     f"`inspector sessions --discover --source {quoted}`", code="not_a_store")
            store = asyncio.run(resolve_target(target, reviewer, notes))
            if not isinstance(store, StoreUrl) and not store.exists():
                hint = ("; `inspector import FILE --into STORE` makes a store from a transcript" if target.suffix
                        else "; it is not a command either (inspector --help lists them)")
                raise InspectorError(f"no store at {store}{hint}", code="not_a_store")
            follow = target if store != target else None
            upgraded = asyncio.run(_opens(store))  # not a store, damaged, unreadable: exit 3 here, not a dialog in an app
    except InspectorError as error:
        fail(error, False)
        return
    from inspector.ui.app import (
        InspectorApp,  # the UI loads only when a screen is wanted
    )
    from inspector.ui.served import end_process_soon

    try:
        InspectorApp(store, session=session, follow=follow, sources=list(sources), listing=listing,
                     reviewer=reviewer, notices=notes, upgraded=upgraded).run()
    finally:  # however the app ended (a served one's pipe closed can raise out of run())
        end_process_soon()  # a connection a cancelled worker left open must not keep the process
        _say_left()
    raise SystemExit(EXIT_OK)


def _say_left() -> None:
    """"left at format N" on stderr once the app has ended, for an older store it made no change to."""
    from inspector.cli import upgrade_said

    upgrade_said.listen()  # not start(): what the app left is this command's to say
    upgrade_said.left_quietly()  # stderr may be gone with the terminal
