"""Bringing an SQLite store file to this version's format: recognised as a store, refused when
newer than this version reads, migrated forward one format at a time otherwise (each step one
transaction, so a killed upgrade leaves the file at the last whole version)."""

from __future__ import annotations

import re
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from inspector.domain.errors import InspectorError, NotAStore
from inspector.domain.plurals import counted
from inspector.store import call_index, reasoning_index, wal_commits
from inspector.store.digest_key import parse_key
from inspector.store.schema import (
    APPLICATION_ID,
    EVENT_INDEX_CHARS,
    FORMAT_VERSION,
    MIGRATIONS,
    V8_LONG_EVENTS,
    V8_REINDEX,
    V9_LONG_EXTRA,
)
from inspector.store.sqlite_connections import scalar, utc_now

# What a format step creates, named in its SQL (an ``IF NOT EXISTS`` object may be there already),
# and what it drops first (format 2 drops ``events_call`` and makes it again with the kind).
_CREATED = re.compile(r"^\s*CREATE\s+(?:UNIQUE\s+|VIRTUAL\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\s+(?!IF\s)(\w+)",
                      re.IGNORECASE | re.MULTILINE)
_DROPPED = re.compile(r"^\s*DROP\s+(?:TABLE|INDEX|TRIGGER|VIEW)\s+(?:IF\s+EXISTS\s+)?(\w+)", re.IGNORECASE | re.MULTILINE)


async def _already_there(db: aiosqlite.Connection, version: int) -> tuple[str, int] | None:
    """An object a later format adds that the file already holds, with that format: its format
    number was lowered behind the tool (``PRAGMA user_version``), since no inspector writes a later
    format's objects without the number. Before (hostile review eight) the upgrade then failed on
    "table reasoning_fts already exists" or a UNIQUE constraint, reported as a store cut short or
    damaged — or, lowered by one step whose only statement is ``IF NOT EXISTS``, went unnoticed."""
    adds = {name: step + 1 for step in range(max(version, 1), FORMAT_VERSION)
            for name in _CREATED.findall(MIGRATIONS[step]) if name not in _DROPPED.findall(MIGRATIONS[step])}
    if not adds:
        return None
    marks = ", ".join("?" for _ in adds)
    async with db.execute(f"SELECT name FROM sqlite_master WHERE name IN ({marks})", list(adds)) as cur:
        found = [str(name) for (name,) in await cur.fetchall()]
    return min(((name, adds[name]) for name in found), key=lambda f: (f[1], f[0]), default=None)


async def refuse_lowered(db: aiosqlite.Connection, version: int, target: Path | None) -> None:
    """``format_number_differs`` when the file holds what a later format adds (see _already_there)."""
    there = await _already_there(db, version) if 0 < version < FORMAT_VERSION else None
    if there is not None:
        raise NotAStore(f"{target or 'the store'} says it is store format {version}, yet it already holds {there[0]}, "
                        f"which format {there[1]} adds: its format number (PRAGMA user_version) was changed behind "
                        "the tool; nothing was changed", code="format_number_differs")


async def migrate(db: aiosqlite.Connection, version: int, target: Path | None = None, *,
                  hold: bool = False, reading: bool = False) -> Upgrade | None:
    """Bring the file from ``version`` to this version's format in **one** transaction: a kill, a full
    disk or any failure part way leaves the file at the format it had (before, each step committed on
    its own, so a kill between two steps left a store half way, at neither format). Returns what was
    done (None for a new store, format 0, or one already current), said through :func:`report_to`.

    With ``hold`` an older store's transaction is left open, uncommitted and unsaid: the Store
    commits it with the command's first act, or rolls it back at close (store/sqlite_store.py,
    "held upgrade"). Before, the upgrade committed at open, so a command refused afterwards — an
    import's bad line 4, an accept's stale base, an unknown id — left the store upgraded anyway.
    ``reading``: ``db`` is a private copy read in the file's place (store/read_copy.py), and the
    progress says so rather than that ``target`` is being upgraded."""
    await refuse_lowered(db, version, target)
    if version >= FORMAT_VERSION:
        return None
    started, before, long_events, long_sides = time.monotonic(), version, 0, 0
    shown = str(target or "the store")
    head = (f"reading {shown} (store format {before}) as format {FORMAT_VERSION}" if reading
            else f"upgrading store format {before} → {FORMAT_VERSION}: {shown}")
    if before > 0:
        _say(f"{head}…", final=False)
    try:
        await db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if before > 0 and ("locked" in str(exc) or "busy" in str(exc)):
            raise lock_held(shown, before) from None
        raise
    try:
        while version < FORMAT_VERSION:
            steps = split_sql(MIGRATIONS[version])
            lowered = version == 7 and await scalar(
                db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'events_long'")
            for statement in steps:
                await db.execute(statement)
            if version == 7 and not lowered:
                # format 8's number lowered to 7 behind the tool (``lowered``): its long events are
                # indexed by their prefix already, and "deleting" their entries with the whole text
                # again left the search index malformed (review-16): only the number is set right
                long_events = await _reindex_long_events(db, head)
            if version == 8:
                long_sides = await _cut_long_side_entries(db, head)
            if version == 0:
                await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                await db.execute(
                    "INSERT INTO store_meta(key, value) VALUES ('commits', '0'), ('digest_key', ?), ('created_at', ?)",
                    (secrets.token_hex(32), utc_now()),
                )
            version += 1
        await db.execute(f"PRAGMA user_version = {version}")
        if not (hold and before > 0):  # a held upgrade's mark is written by the commit that ends it, once
            await db.execute(wal_commits.MARK_SQL)  # a migration's commit is the inspector's too
    except BaseException:
        await db.execute("ROLLBACK")
        raise
    if before == 0:
        await db.execute("COMMIT")
        return None
    done = Upgrade(shown, before, version, long_events, time.monotonic() - started, long_sides)
    if hold:
        return done  # committed (and said) by the Store's first act, or rolled back at its close
    await db.execute("COMMIT")
    announce(done)
    return done


async def _reindex_long_events(db: aiosqlite.Connection, head: str) -> int:
    """Format 8's one-off re-index of the events longer than the index holds, one event at a time,
    saying how far it got (a 1 MB event's grams take about half a second)."""
    ids = [int(row[0]) for row in await db.execute_fetchall(V8_LONG_EVENTS)]
    for done, event_id in enumerate(ids, 1):
        _say(f"{head}: re-indexing long events, "
             f"{done:,} of {len(ids):,}…", final=False)
        for statement in V8_REINDEX:
            await db.execute(statement, (event_id,))
    return len(ids)


async def _cut_long_side_entries(db: aiosqlite.Connection, head: str) -> int:
    """Format 9's one-off cut of call-input and thinking entries longer than the index holds, one
    event at a time (only events whose stored JSON is that long may have one); how many events had one."""
    ids = [int(row[0]) for row in await db.execute_fetchall(V9_LONG_EXTRA)]
    cut = 0
    for done, event_id in enumerate(ids, 1):
        _say(f"{head}: re-indexing long call input and "
             f"thinking, {done:,} of {len(ids):,}…", final=False)
        results = [await side.cut_to_bound(db, event_id) for side in (call_index.CALLS, reasoning_index.REASONING)]
        cut += any(results)
    return cut


# What each format step adds, as the upgrade's line says it.
_STEPS = {1: "the store made", 2: "the one- and two-character search index", 3: "a watermark of the search index",
          4: "a watermark of the materials' search index", 5: "tool-call inputs indexed for search",
          6: "thinking text indexed for search", 7: "an index of ledger entries by kind",
          8: f"an index of events over {EVENT_INDEX_CHARS:,} characters",
          9: f"call input and thinking indexed through their first {EVENT_INDEX_CHARS:,} characters"}


@dataclass(frozen=True)
class Upgrade:
    """A format upgrade this open made: said on stderr by the CLI, as a notice by the app."""

    path: str
    before: int
    after: int
    long_events: int
    seconds: float
    long_sides: int = 0  # events whose call input or thinking was re-indexed by its first part (format 9)
    why_now: str = ""  # why an upgrade a command would hold until its first act was made at open

    def said(self) -> str:
        added = [_STEPS[step] for step in range(self.before + 1, self.after + 1)]
        if self.long_events:
            added.append(f"{counted(self.long_events, 'event')} over {EVENT_INDEX_CHARS:,} characters re-indexed by "
                         "their first part")
        if self.long_sides:
            added.append(f"the call input or thinking of {counted(self.long_sides, 'event')} over {EVENT_INDEX_CHARS:,} "
                         "characters re-indexed by its first part")
        took = f" in {self.seconds:.1f} s" if self.seconds >= 1 else ""
        now = f"; upgraded at open: {self.why_now}" if self.why_now else ""
        return (f"upgraded store format {self.before} → {self.after}: {self.path} ({'; '.join(added)}){took}; its records and ledger are as they were, and the inspector versions that "
                f"read only format {self.before} cannot open it any more{now}")

    def as_dict(self) -> dict[str, object]:
        return {"from": self.before, "to": self.after, "long_events_reindexed": self.long_events,
                "long_call_input_or_thinking_reindexed": self.long_sides,
                **({"upgraded_at_open": self.why_now} if self.why_now else {}), "message": self.said()}


Say = Callable[[str, bool], None]
_reporter: list[Say] = []
# Stores left at their format (left_as_it_was): path → its sentence, said at the command's end
# (say_left) unless an upgrade of the same store was said since ("" once said or upgraded).
_left: dict[str, str] = {}


def report_to(say: Say | None) -> None:
    """Where upgrades are said (text, final): the CLI's stderr; None: nowhere (the app shows the
    Store's ``format_upgraded`` as a notice instead — stderr under a running app would garble it)."""
    _reporter[:] = [say] if say is not None else []


def announce(done: Upgrade) -> None:
    """Say an upgrade made: this module's own, a held one committed by an act, or one another backend
    made (PostgreSQL migrates under its own lock)."""
    _left[done.path] = ""  # an earlier open's "left at format N" is no longer true: never said
    _say(done.said(), final=True)


def left_as_it_was(done: Upgrade) -> None:
    """Note that a held upgrade was rolled back: the command wrote nothing (or was refused) — said
    once per store and process, at the command's end (:func:`say_left`). An import or a follow opens
    its store twice (the look for bytes imported before, then the import): said at the first close,
    "left at format 8, as nothing was written" stood on stderr above "upgraded store format 8 → 9"
    of the same store a moment later (review-18)."""
    if done.path not in _left:
        # reading through the upgraded copy (store/read_copy.py) costs every command that long until then
        took = (f"; reading it through an upgraded copy took {done.seconds:.1f} s, which every command pays until "
                "it is upgraded" if done.seconds >= 1 else "")
        _left[done.path] = (f"{done.path} has store format {done.before}: read as format {done.after} for this "
                            f"command and left at format {done.before}, as nothing was written (`inspector upgrade "
                            f"{done.path}` upgrades it; so does the first act made on it{took})")


def forget_left() -> None:
    """A command starts with nothing left to say: a store an earlier open in this process left at its
    format (a test, a long-lived caller of ``open_store``) is not this command's — its line printed at
    the end of the next command's ``--json`` named a store that command never opened (index-speed)."""
    _left.clear()


def say_left() -> None:
    """Say each store left at its format that no later open of this process upgraded."""
    for path, text in _left.items():
        if text:
            _left[path] = ""
            _say(text, final=True)


def _say(text: str, *, final: bool) -> None:
    for say in _reporter:
        say(text, final)


def split_sql(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements


def lock_held(shown: str, version: int) -> InspectorError:
    """``store_busy`` for an older store whose upgrade could not take the write lock (review-18).

    Reads of an older store no longer take it (they read an upgraded private copy,
    store/read_copy.py); the upgrade is made by the first act, or by an open that upgrades at once
    (``inspector upgrade``, ``migrate``'s source), and waits for another process's write like any
    write. Said with the format and the way out, not only "locked for writing"."""
    from inspector.store.faults import StoreRefused
    from inspector.store.sqlite_connections import BUSY_TIMEOUT_MS

    return StoreRefused(
        f"{shown} has store format {version}, which this version upgrades to {FORMAT_VERSION} with the first change "
        f"made on it, and the upgrade needs the store's write lock: another process held it past the "
        f"{BUSY_TIMEOUT_MS / 1000:g} s wait; nothing was written — try again when it has finished "
        f"(`inspector upgrade {shown}` upgrades it on its own)", code="store_busy")


async def check_and_migrate(db: aiosqlite.Connection, target: Path, exists: bool,
                            upgrade: bool = True, hold: bool = False) -> tuple[bytes, Upgrade | None]:
    """Refuse a file that is not a store of a format this version reads, migrate an older one
    forward (unless ``upgrade`` is False: then it is refused, ``format_upgrade_needed``, before
    anything is written; or ``hold``: then it is left as it is, for the caller to read through an
    upgraded copy, store/read_copy.py), and return the store's digest key and the upgrade made."""
    app_id = await scalar(db, "PRAGMA application_id")
    version = await scalar(db, "PRAGMA user_version")
    if exists and app_id != APPLICATION_ID:
        raise NotAStore(f"{target} is an SQLite file but not a Context Inspector store")
    if version > FORMAT_VERSION:
        raise NotAStore(
            f"{target} has store format {version}; this version of Context Inspector reads up to "
            f"{FORMAT_VERSION}. Upgrade the inspector to open it.",
            code="unknown_format_version",
        )
    await refuse_no_format(db, target, exists, app_id, version)
    if not upgrade and 0 < version < FORMAT_VERSION:
        await refuse_lowered(db, version, target)  # a number lowered behind the tool is verify's break to name
        raise upgrade_needed(target, version, "a check writes nothing")
    if upgrade or str((await db.execute_fetchall("PRAGMA journal_mode"))[0][0]).lower() == "wal":
        # A store another program switched to a rollback journal (``PRAGMA journal_mode = DELETE``) was switched
        # back here — a write to its header — even by ``verify``, which writes nothing: verify reads it as it is.
        await db.execute("PRAGMA journal_mode = WAL")
    if hold and 0 < version < FORMAT_VERSION:  # read through an upgraded copy; the first act upgrades the file
        await refuse_lowered(db, version, target)
        done = None
    else:
        done = await migrate(db, version, target)
    async with db.execute("SELECT value FROM store_meta WHERE key = 'digest_key'") as cur:
        row = await cur.fetchone()
    if row is None:
        raise NotAStore(f"{target} is missing its store metadata")
    return parse_key(row[0], target), done


async def refuse_no_format(db: aiosqlite.Connection, target: Path, exists: bool, app_id: int, version: int) -> None:
    """``format_number_differs`` for a store whose format number no inspector writes: below 0 (the
    migration ran ``MIGRATIONS[-1]`` and ended in a KeyError traceback), or 0 — a new, empty file's —
    on a file that holds tables already (the migration from 0 failed "table store_meta already
    exists", said as a store that cannot be read). Both are a number changed behind the tool
    (storefault-ten); nothing was changed."""
    if version < 0 or (version == 0 and exists and app_id == APPLICATION_ID
                       and await scalar(db, "SELECT COUNT(*) FROM sqlite_master") > 0):
        raise NotAStore(f"{target} says it is store format {version}, which no inspector writes"
                        + (" on a store that holds tables already" if version == 0 else "")
                        + ": its format number (PRAGMA user_version) was changed behind the tool; nothing was changed",
                        code="format_number_differs")


def upgrade_needed(target: Path, version: int, why: str) -> InspectorError:
    """The refusal of an older store by an open that may not upgrade it (``why``): nothing changed."""
    return InspectorError(
        f"{target} has store format {version} and must be upgraded to {FORMAT_VERSION} before this version can read "
        f"it, but {why}, so it was not upgraded: nothing was changed — `inspector upgrade {target}` upgrades it "
        f"(where it can be written), or read it with the inspector version that wrote it",
        code="format_upgrade_needed")
