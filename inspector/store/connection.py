"""Opening a store: recognising it, migrating it forward, and handing out the :class:`Store`.

This is the store layer's public face — the services and the app import ``open_store``,
``Store`` and the helpers below from here. The parts live in modules of their own:
``sqlite_connections`` makes and configures SQLite connections, ``format_upgrade`` brings a
file to this version's format, ``sqlite_store`` is the open store with its writer and readers,
and ``pg/`` is the same over PostgreSQL. A store that cannot be written opens read-only
(``mode=ro``, or ``immutable`` when even WAL's shared-memory file cannot be made), and every
write is then refused with ``read_only``.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite

from inspector.domain.errors import InspectorError, NotAStore
from inspector.store import (
    call_index,
    deletion_residue,
    faults,
    file_length,
    format_upgrade,
    grams,
    held_files,
    migration_marker,
    orphan_where,
    read_copy,
    reasoning_index,
    sqlite_connections,
    wal_owner,
)
from inspector.store.digest_key import parse_key
from inspector.store.faults import FULL_DISK
from inspector.store.format_upgrade import check_and_migrate, upgrade_needed
from inspector.store.format_upgrade import report_to as report_upgrades
from inspector.store.location import StoreUrl, is_url, store_target
from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION
from inspector.store.sqlite_connections import (
    SQLITE_MAGIC,
    check_file_is_sqlite,
    close_all,
    connect_reader,
    connection,
    fetch_one,
    medium_fault,
    read_only_reason,
    scalar,
    utc_now,
)
from inspector.store.sqlite_store import Store

__all__ = ["SQLITE_MAGIC", "Store", "checkpoint", "data_version", "fetch_one", "last_change", "open_store",
           "read_only_reason", "report_upgrades", "store_error", "utc_now"]

# The names these helpers had when they lived here, for modules written against them.
_configure = sqlite_connections.configure
_connect = connect_reader


def store_error(exc: BaseException) -> InspectorError | None:
    """The product error (code and sentence, store/faults.py) for an SQLite or OS error met while
    using a store — for the app's error dialog, which imports no sqlite3 — or None for others."""
    if isinstance(exc, (sqlite3.DatabaseError, OSError)) and not isinstance(exc, BrokenPipeError):
        return faults.explain(exc)
    return None


async def open_store(path: str | os.PathLike[str] | StoreUrl, *, create: bool = False, read_only: bool | None = None,
                     unfinished: bool = False, upgrade: bool = True, hold_upgrade: bool = True) -> Store:
    """Open (or, with ``create``, make) a store; refuse anything that is not one.

    A copy that ``inspector migrate`` has not finished (store/migration_marker.py) is refused
    with ``migration_unfinished`` — only ``migrate`` itself opens one (``unfinished``), to
    finish it. A carried-out deletion whose text is still in the file is finished here, or named
    in ``deleted_text_in_file`` (store/deletion_residue.py). An older format is upgraded (and the
    upgrade said: ``format_upgraded``, format_upgrade.report_to) unless ``upgrade`` is False — a
    command that writes nothing (``verify``) — which refuses it, ``format_upgrade_needed``,
    nothing written. The upgrade of a file store is *held* (``hold_upgrade``, the default): made in a
    transaction the store's first act commits with it, and rolled back at close when the command made
    no act — so a command refused after the open (a bad line of an import, a stale candidate, an
    unknown id) leaves the file byte for byte as it was. A holder that stays open (the app, a
    follow, ``inspector upgrade``) passes False: the upgrade commits at once, as before.
    See :func:`_open` for the rest.
    """
    store = await _open(path, create=create, read_only=read_only, upgrade=upgrade, hold=hold_upgrade)
    if not unfinished:
        try:
            found = await migration_marker.read(store.db)
        except BaseException:  # a cancel included: the store was never handed out, so it is closed here
            await store.close()
            raise
        if found is not None:
            await store.close()
            raise migration_marker.refusal(str(store.path), found)
    try:
        store.deleted_text_in_file = await deletion_residue.settle(store)
    except BaseException:
        await store.close()
        raise
    return store


async def _open(path: str | os.PathLike[str] | StoreUrl, *, create: bool, read_only: bool | None,
                upgrade: bool = True, hold: bool = False) -> Store:
    """Open (or, with ``create``, make) a store; refuse anything that is not one.

    A file of a newer format version is refused rather than guessed at; an older one
    is migrated forward. A store that cannot be written (a read-only medium, a file or
    folder without write permission) opens read-only (``read_only`` None: decided here);
    asking to create or write one there (``create``) is refused with ``read_only``.
    ``path`` may be a PostgreSQL URL (``postgresql://user@host:port/database``, or a
    :class:`StoreUrl`): the store is then that database's.
    """
    if is_url(path):  # a PostgreSQL database (inspector/store/pg): the same Store over asyncpg
        from inspector.store.pg.store import open_pg_store

        return await open_pg_store(store_target(path), create=create, read_only=read_only,  # type: ignore[arg-type]
                                   hold=hold, upgrade=upgrade)
    target = Path(path)
    problem = faults.path_problem(target)  # never opened: a folder, a FIFO…
    if problem is None and target.is_symlink():
        # SQLite follows the link and keeps its log, index and journal beside the file it leads to: every
        # check of those names looked beside the link instead, so a FIFO at the real file's -wal was taken
        # as the log (storefault-ten). The store is the file the link leads to, named so from here on.
        target = Path(os.path.realpath(target))
    problem = problem or faults.companion_problem(target)
    if problem is not None:
        raise problem
    exists = target.exists()
    if exists and target.stat().st_size == 0:
        raise InspectorError(f"{target} is an empty file (0 bytes): not a store, or a store cut to nothing; nothing "
                             "was opened or made there — restore it from a copy, or remove it to make a new store "
                             "at that name", code="damaged_store")
    if exists:
        check_file_is_sqlite(target)
    else:
        orphan = _orphan_log(target)
        if orphan is not None:
            raise orphan
    if not exists and not create:
        # the way on: "no store at X" said nothing of how one is made
        raise NotAStore(f"no store at {target} (`inspector import FILE --into STORE` makes a store from a transcript)")
    reason = read_only_reason(target) if read_only is None else ("opened read-only" if read_only else None)
    if reason is not None and create:
        raise InspectorError(f"{target} cannot be written ({reason}): a store there can be read, not imported "
                             "into", code="read_only")
    had = {suffix: os.path.lexists(f"{target}{suffix}") for suffix in ("-wal", "-shm")}  # what opening may add
    if reason is not None:
        try:
            store = await _open_read_only(target, reason, copy_older=hold and upgrade)
            # The empty log and its index SQLite's read-only reader makes beside the store (where the folder
            # can be written after all: opened read-only on purpose, a file without write permission) are
            # removed at close, as a refused open's are — a read left them (storefault-eleven)
            store.made_beside = had
        except InspectorError as refused:
            if refused.code == "format_upgrade_needed":  # an older store read-only: leave the folder as it was
                wal_owner.remove_made(target, had)
            raise
        store._held = held_files.hold(target)
        return store
    try:
        db = await connection(str(target))
    except sqlite3.Error as exc:
        raise NotAStore(f"cannot open {target}: {exc}") from None
    try:
        await sqlite_connections.configure(db)
        # The writer fills the short-query index (events_grams): catch-up, migrations, deletions.
        await db.create_function(grams.FUNCTION, 1, grams.grams, deterministic=True)
        await call_index.register_async(db)  # and the call-input index (format 5)
        await reasoning_index.REASONING.register_async(db)  # and the thinking-text index (format 6)
        why_now = read_copy.too_large(target) if hold and exists else ""
        hold = hold and not why_now  # a copy per command of a store this large has no bound: upgrade at open
        with held_files.writing(target):  # a migration's commits may checkpoint (see held_files.writing)
            key, upgraded = await check_and_migrate(db, target, exists, upgrade, hold)
        if upgraded is not None and why_now:
            upgraded = dataclasses.replace(upgraded, why_now=why_now)
        copy, held = None, None
        if hold and 0 < await scalar(db, "PRAGMA user_version") < FORMAT_VERSION:
            copy, held = await read_copy.make(db, target)  # read there; the file upgraded by the first act
        return await _file_store(target, db, key, upgraded, copy if held is not None else None, held)
    except sqlite3.DatabaseError as exc:
        await close_all([db])
        if exists and not create and medium_fault(exc):
            # A disk too full (or failing) for WAL's -shm file: the store is still read, read-only.
            try:
                store = await _open_read_only(target, FULL_DISK, copy_older=hold and upgrade)
                store.open_error = getattr(exc, "sqlite_errorname", "") or ""
                store.made_beside = had  # the empty -wal/-shm the failed open made: removed at close
            except InspectorError as refused:
                if refused.code == "disk_full":  # an upgrade the full disk refused: leave the folder as it was
                    wal_owner.remove_made(target, had)
                raise
            store._held = held_files.hold(target)
            return store
        if medium_fault(exc) or getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            raise faults.explain(exc, str(target)) from None
        cut = None if held_files.holds(target) else file_length.said_cut(target, APPLICATION_ID)
        if cut is not None:  # a store cut at a page boundary: SQLite says only "malformed"
            raise InspectorError(f"{target} cannot be opened: the store's file was cut short ({cut}); restore it "
                                 "from a copy (`inspector verify` says the same)", code="damaged_store") from None
        failed = None if held_files.holds(target) else faults.read_failure(target)
        if failed is not None:  # the disk failed under SQLite's read ("vtable constructor failed", "unable to open")
            raise faults.explain(failed, str(target)) from None
        raise _unreadable(target, exc) from None
    except UnicodeDecodeError as exc:  # a damaged schema's message may not even decode
        await close_all([db])
        raise NotAStore(f"{target} is not a readable store: {exc}") from None
    except InspectorError as refused:
        await close_all([db])
        if refused.code == "format_upgrade_needed":  # an older store a command that writes nothing met
            wal_owner.remove_made(target, had)
        raise
    except BaseException:  # a cancel at any await above included: nobody else holds the connection
        await close_all([db])
        raise




async def _file_store(target: Path, db: aiosqlite.Connection, key: bytes, upgraded: format_upgrade.Upgrade | None,
                      copy: read_copy.ReadCopy | None, held: format_upgrade.Upgrade | None) -> Store:
    """The Store over the writer ``db``: reading the file, or — an older store whose upgrade is held —
    reading the upgraded private ``copy`` until its first act upgrades the file (store/held_upgrade.py)."""
    def file_reader() -> Any:
        return connect_reader(target, read_only=False)

    if copy is None:
        store = Store(target, db, key, await file_reader(), connect_reader=file_reader)
        store.format_upgraded = upgraded.as_dict() if upgraded is not None else None
    else:
        try:
            reader = await connect_reader(copy.path, read_only=False)
        except BaseException:
            read_copy.remove(copy.folder)
            raise
        store = Store(target, db, key, reader, connect_reader=lambda: connect_reader(copy.path, read_only=False))
        store.hold_on_copy(copy, held, file_reader)  # type: ignore[arg-type]
    store._held = held_files.hold(target)
    return store


def _unreadable(target: Path, exc: BaseException) -> InspectorError:
    """A file SQLite cannot open as a store: ``damaged_store`` when its header names it a Context
    Inspector store (a damaged header, a first page of zeros: verify said ``damaged_store`` while
    every other command said ``not_a_store``, "not a readable store"), else ``not_a_store``."""
    head = b""
    if not held_files.holds(target):  # closing a descriptor of a held file would drop this process's locks
        try:
            with target.open("rb") as fh:
                head = fh.read(100)
        except OSError:
            pass
    if head[:16] == SQLITE_MAGIC and int.from_bytes(head[68:72], "big") == APPLICATION_ID:
        return InspectorError(f"{target} is a Context Inspector store (its header says so) that cannot be read: {exc}; "
                              f"nothing was changed — restore it from a copy (`inspector verify {target}` says what it "
                              "finds)", code="damaged_store")
    return NotAStore(f"{target} is not a readable store: {exc}")


def _orphan_log(target: Path) -> InspectorError | None:
    """``orphan_wal`` when no store file is at ``target`` but a log with pages is beside it.

    A program that held the store was killed after the file was moved away (``mv s.db away.db``)
    or deleted: SQLite never copied its last commits into the file, so they are only in
    ``s.db-wal``, which stays at the old name. "no store at s.db" said nothing of it, and an
    import into s.db made a new store there and removed the log with the acts in it
    (storefault-nine, gap 3). Nothing is made or removed now."""
    wal = Path(f"{target}-wal")
    try:
        size = wal.stat().st_size
    except OSError:
        return None
    if size <= 32:  # a log's header alone holds no page
        return None
    return InspectorError(
        f"no store file at {target}, but {wal.name} ({size:,} bytes) is there: the log of a store that was open here "
        "when its program ended without closing it, whose file was moved or deleted since. It may hold that store's "
        f"last acts. Nothing was made or changed — if the store was moved, move {wal.name} beside it under its new "
        f"name (NEW.db-wal) with no program holding it, then open it; to make a new store here, move {wal.name} "
        f"(and its -shm) away first. {orphan_where.said(target, wal)}", code="orphan_wal")


async def _open_read_only(target: Path, reason: str, *, copy_older: bool = False) -> Store:
    """A store that cannot be written, read-only. An older one is read through an upgraded private copy
    (``copy_older``: a command that may upgrade; store/read_copy.py) — it was refused, "must be upgraded
    before this version can open it", on a read-only medium or a full disk, though reading it needs
    no write to it; its acts are refused as any read-only store's. Else ``format_upgrade_needed``."""
    try:
        db = await connect_reader(target, read_only=True)
    except sqlite3.Error as exc:
        raise NotAStore(f"cannot open {target} read-only: {exc}") from None
    try:
        app_id = await scalar(db, "PRAGMA application_id")
        version = await scalar(db, "PRAGMA user_version")
        if app_id != APPLICATION_ID:
            raise NotAStore(f"{target} is an SQLite file but not a Context Inspector store")
        if copy_older and 0 < version < FORMAT_VERSION:
            return await _read_only_copy(target, db, reason)
        if version != FORMAT_VERSION and reason == FULL_DISK and version < FORMAT_VERSION:
            # a writable store whose format upgrade the full disk refused: the disk is what to fix
            raise InspectorError(f"{target} has store format {version} and must be upgraded to {FORMAT_VERSION} before "
                                 "this version can open it, but the disk holding it is full (or failing): nothing was "
                                 "changed — free some space and open it again", code="disk_full")
        if version > FORMAT_VERSION:
            raise NotAStore(f"{target} has store format {version}; this version of Context Inspector reads up to "
                            f"{FORMAT_VERSION}. Upgrade the inspector to open it.", code="unknown_format_version")
        if version != FORMAT_VERSION:  # a store that cannot be written cannot be upgraded: said as that
            raise upgrade_needed(target, version, f"it can only be read here ({reason})")
        row = await fetch_one(db, "SELECT value FROM store_meta WHERE key = 'digest_key'")
        if row is None:
            raise NotAStore(f"{target} is missing its store metadata")
        return Store(target, None, parse_key(row[0], target), db, read_only=True, read_only_reason=reason,
                     connect_reader=lambda: connect_reader(target, read_only=True))
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a damaged schema's message may not even decode
        await close_all([db])
        raise NotAStore(f"{target} is not a readable store: {exc}") from None
    except BaseException:
        await close_all([db])
        raise


async def _read_only_copy(target: Path, db: aiosqlite.Connection, reason: str) -> Store:
    """An older store that cannot be written, read through its upgraded copy (see _open_read_only)."""
    copy, held = await read_copy.make(db, target)
    row = await fetch_one(db, "SELECT value FROM store_meta WHERE key = 'digest_key'")
    if row is None:
        read_copy.remove(copy.folder)
        raise NotAStore(f"{target} is missing its store metadata")
    if held is None:  # current by the time it was copied (a writer elsewhere upgraded it): read the file
        return Store(target, None, parse_key(row[0], target), db, read_only=True, read_only_reason=reason,
                     connect_reader=lambda: connect_reader(target, read_only=True))
    try:
        reader = await connect_reader(copy.path, read_only=False)
    except BaseException:
        read_copy.remove(copy.folder)
        raise
    store = Store(target, None, parse_key(row[0], target), reader, read_only=True, read_only_reason=reason,
                  connect_reader=lambda: connect_reader(copy.path, read_only=False))
    store._retired.append(db)  # the file's own connection: closed with the store
    store.hold_on_copy(copy, held, lambda: connect_reader(target, read_only=True))
    return store


async def checkpoint(store: Store) -> bool:
    """Copy the WAL into the database file and truncate it to zero bytes (after a deletion,
    so no old frame keeps deleted content). False when a reader still holds an older
    snapshot after the busy timeout: the WAL is then truncated by the next checkpoint."""
    if getattr(store, "dialect", "sqlite") == "postgresql":
        from inspector.store.pg.maintenance import reclaim

        return await reclaim(store)
    with held_files.writing(store.path):  # another Store of this process must not take it for a copy
        row = await fetch_one(store.db, "PRAGMA wal_checkpoint(TRUNCATE)")
    return row is not None and int(row[0]) == 0


async def data_version(db: aiosqlite.Connection) -> int:
    """Changes whenever *another* connection commits to the file (SQLite's own change counter);
    on PostgreSQL, whenever another server session appends to the ledger (its notices)."""
    if getattr(db, "dialect", "sqlite") == "postgresql":
        await db.start()  # type: ignore[attr-defined]  # listening from the first look on
        return int(db.changes)  # type: ignore[attr-defined]
    row = await fetch_one(db, "PRAGMA data_version")
    return int(row[0]) if row else 0


async def last_change(store: Store) -> dict[str, Any] | None:
    """Who made the latest change another process committed, and what it was (session, kind,
    actor, seq): from the change notice on PostgreSQL, from the ledger's last entry on SQLite
    (every write appends one)."""
    notice = getattr(store, "last_change", None)
    if notice is not None:
        return dict(notice)
    row = await fetch_one(store.db, "SELECT session, kind, actor, seq FROM ledger ORDER BY seq DESC LIMIT 1")
    return None if row is None else {"session": row[0], "kind": row[1], "actor": row[2], "seq": row[3]}
