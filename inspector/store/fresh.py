"""A store that an import creates: filled under a hidden name, then published whole in WAL mode.

Why: a store in WAL mode writes every page twice — once into the write-ahead log, once more
when the log is copied into the file at close — and syncs both. A 4 MB transcript makes an
8.5 MB store; in WAL mode that was ~31 MB written and 7 syncs, about as long as reading and
converting the whole transcript (docs/benchmarks.md, issue #18). A store nobody else can
see yet needs none of that: its pages are written once, into its own file, and synced once.

How, and why it is safe at every instant (docs/store-format.md, "A store an import creates"):

1. The schema is made in a file of its own, ``.NAME.importing-PID-HEX`` in the store's folder
   (:func:`fill_path`), never at the store's path. No other process opens that name, so
   nobody reads or writes it while it is filled.
2. The import fills it in one transaction with the rollback journal in memory
   (``journal_mode=MEMORY``: savepoints and a refusal's rollback still work), without syncs
   (``synchronous=OFF``) and a 16 MiB page cache, so a store up to that size has each page
   written once, at the commit (a larger one spills pages to the file as it goes, unsynced).
   A crash here can leave that file torn — but it is not the store: the store's path does
   not exist yet.
3. :func:`publish` then switches the file to WAL (``PRAGMA journal_mode=WAL``, in the
   file's header, so every later opener uses WAL and readers run beside writers as for any
   store), closes it (the last connection removes the empty ``-wal``/``-shm``), syncs the
   file (``fsync``: every page and the size are on disk) and only then gives it the store's
   name with ``link`` — which, unlike ``rename``, fails when the name exists, so a store
   someone created meanwhile is never replaced — and syncs the folder so the name is on
   disk too. A crash before the link leaves no store; after it, a complete one (the file
   was synced before it had the name). The hidden name is removed after the link.
4. What a crash leaves behind is only the hidden file; a later import into the same path
   removes every such file whose process is gone and which has not changed for ten minutes
   (:func:`remove_stale`).

A failed import removes the hidden file (nothing was ever at the store's path). When the
store's path exists by the time of the link (another import created it), :func:`publish`
says so and the caller imports again into that store the ordinary way (WAL, with readers);
so it does where the file system makes no hard links.
Importing into an existing store never comes here.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import re
import secrets
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from inspector.domain import known_text
from inspector.domain.canonical import content_hash, keyed_digest
from inspector.store import call_index, grams, reasoning_index
from inspector.store.connection import Store, fetch_one, utc_now
from inspector.store.process_alive import alive
from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION, MIGRATIONS
from inspector.store.schema_expected import expected_schema
from inspector.store.sqlite_connections import close_all, configure, connect_reader, plain_name, read_only_reason

SIDECARS = ("-journal", "-wal", "-shm")
# The page cache while filling (KiB): pages stay in memory until the commit writes each once
# (SQLite's default, 2 MiB, spills an 8 MB store to the file mid-transaction and rewrites pages).
# 16 MiB holds a 4 MB transcript's store whole; a larger import spills, without syncs. 64 MiB
# added 28 MB of peak RSS to a 100k-event import (199 against 171 MB) for no measurable gain.
FILL_CACHE_KIB = 16 * 1024
# A new store's page size (bytes; set before its first table, fixed for the file's life). With
# SQLite's default 4 KiB a 64 KiB material chunk is a chain of 16 overflow pages and a 1.5 KB
# event row shares its page with one other: the 4 MB transcript's commit wrote 2,100 pages in
# 8 ms of SQLite's CPU, at 16 KiB 4 ms (the whole fill -6 ms; docs/benchmarks.md, session 8).
# A store made by ``open_store`` keeps the default; SQLite reads either.
FILL_PAGE_SIZE = 16 * 1024
_FILL_PRAGMAS = ("PRAGMA journal_mode = MEMORY", "PRAGMA synchronous = OFF", f"PRAGMA cache_size = -{FILL_CACHE_KIB}")
# Tables whose plain (not UNIQUE) indexes a new store is filled without and gets whole at
# :func:`publish`: each event row otherwise updates three more B-trees as it goes in, and
# building an index once over a filled table (a sort) is about half the work (100,000 events
# inserted, CPU: 1.13-1.26 s with the indexes, 0.62-0.69 s without them plus creating them after;
# docs/benchmarks.md, session 12). UNIQUE indexes stay: they refuse a repeated identity while
# the import runs. No query of an import needs these for its answer (only for its speed), and
# nobody else can open the file before it is published (see the module docstring).
DEFERRED_INDEX_TABLES = ("events",)
_DEFERRED_SQL = ("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' "
                 f"AND tbl_name IN ({', '.join(repr(t) for t in DEFERRED_INDEX_TABLES)})")


def fill_path(target: Path) -> Path:
    """The hidden name a new store is filled under, beside the store (``link`` needs one file system)."""
    return target.with_name(f".{target.name}.importing-{os.getpid()}-{secrets.token_hex(4)}")


def can_fill(target: Path) -> bool:
    """True when nothing is at the store's path (nor a journal or log of one): a new store."""
    return not any(os.path.lexists(f"{target}{suffix}") for suffix in ("", *SIDECARS))


@dataclass(frozen=True, slots=True)
class Made:
    """What making a new store learnt that the import needs again, so it is not worked out a
    second time on the import's critical path: the SQL of the indexes left out, as SQLite stored
    it when the migrations made them (:func:`publish` makes them again from it, instead of
    running every migration once more in memory for :func:`expected_schema`: 7 ms of CPU in a
    fresh process), and the imported file's keyed digest under the new store's key."""

    key: bytes
    deferred: tuple[str, ...]
    file_digest: str | None  # None when no bytes were given (or none there): the import digests them


def create_schema(path: Path, data: bytes | None = None) -> Made:
    """Make an empty store of the current format at ``path`` (a new file), in one transaction.

    Runs on a thread of its own (plain ``sqlite3``, which releases the interpreter lock while
    SQLite works), so the import converts its transcript meanwhile. The same schema, metadata
    and versions as :func:`inspector.store.connection.open_store` makes, all steps at once.
    ``data``: the file being imported, whose keyed digest (what the ledger names it by) is taken
    here too — hashing a large buffer also releases the interpreter lock, so it runs beside the
    conversion; at the import's end it ran alone (3 ms for 4.5 MB)."""
    db = sqlite3.connect(plain_name(path), isolation_level=None)
    key = secrets.token_hex(32)
    try:
        db.execute(f"PRAGMA page_size = {FILL_PAGE_SIZE}")
        for pragma in _FILL_PRAGMAS:
            db.execute(pragma)
        grams.register(db)  # format 2's migration names ci_grams
        # executescript commits what is pending before it runs: the transaction starts inside it
        db.executescript("BEGIN IMMEDIATE;\n" + "".join(MIGRATIONS[v] for v in range(FORMAT_VERSION)))
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        # the commit mark (store/wal_commits.py) from birth, so every store of this version has it
        db.execute("INSERT INTO store_meta(key, value) VALUES ('commits', '0'), ('digest_key', ?), ('created_at', ?)",
                   (key, utc_now()))
        db.execute(f"PRAGMA user_version = {FORMAT_VERSION}")
        deferred = db.execute(_DEFERRED_SQL).fetchall()
        for name, _sql in deferred:
            db.execute(f'DROP INDEX "{name}"')  # made again, whole, when the store is published
        db.execute("COMMIT")
    finally:
        db.close()
    secret = bytes.fromhex(key)
    return Made(secret, tuple(str(sql) for _name, sql in deferred), keyed_digest(secret, data) if data else None)


def start_filling(into: Path, original: bytes, converting: bool) -> tuple[Path, asyncio.Future[Made]] | None:
    """Start making a new store's schema under its hidden name, on a thread (None: the store
    exists, or cannot be written here — the ordinary path then opens it, or refuses with its
    reason). ``converting``: ``original`` is a transcript, whose content hash its converter
    takes last: taken here first (:func:`_make`)."""
    if not can_fill(into) or read_only_reason(into) is not None:
        return None
    remove_stale(into)
    path = fill_path(into)
    return path, asyncio.get_running_loop().run_in_executor(None, _make, path, original, converting)


def _make(path: Path, original: bytes, converting: bool) -> Made:
    """On a thread while the transcript converts: its content hash first (the converter's last
    step takes it, domain/known_text.py: hashing releases the interpreter lock, so it runs beside
    the conversion's Python instead of after it), then the store."""
    if converting and original:
        known_text.remember_hash(original, content_hash(original))
    return create_schema(path, original)


async def open_filling(path: Path) -> Store:
    """The store being filled, on one connection (it is the only one that ever opens the file)."""
    db = await aiosqlite.connect(plain_name(path), isolation_level=None)
    try:
        await configure(db)
        for pragma in _FILL_PRAGMAS:
            await db.execute(pragma)
        await db.create_function(grams.FUNCTION, 1, grams.grams, deterministic=True)
        await call_index.register_async(db)
        await reasoning_index.REASONING.register_async(db)
        row = await fetch_one(db, "SELECT value FROM store_meta WHERE key = 'digest_key'")
        key = bytes.fromhex(row[0])
    except BaseException:
        await close_all([db])
        raise
    return Store(path, db, key, db, connect_reader=lambda: connect_reader(path, read_only=False))


class NotPublished(Exception):
    """The filled store could not be given the store's name (it was removed): the name is
    taken by now (``taken``), or this file system makes no hard links."""

    def __init__(self, taken: bool) -> None:
        super().__init__("the store's name is taken" if taken else "no hard links here")
        self.taken = taken


async def publish(store: Store, target: Path, deferred: Sequence[str] | None = None) -> None:
    """Switch the filled store to WAL, sync it and give it the store's name; raises
    :class:`NotPublished` (the filled file removed) when that cannot be done without
    replacing what is at the name. Closes ``store``. ``deferred``: the indexes
    :func:`create_schema` left out (:attr:`Made.deferred`); None, every index of the format
    the file lacks."""
    filled = store.path
    try:
        await _make_deferred_indexes(store, deferred)
        mode = await fetch_one(store.watch_db, "PRAGMA journal_mode = WAL")
        if mode is None or str(mode[0]).lower() != "wal":
            raise sqlite3.OperationalError(f"could not switch the new store to WAL (journal mode {mode})")
    finally:
        await store.close()
    try:
        _sync(filled)
        os.link(filled, target)
    except FileExistsError:
        remove(filled)
        raise NotPublished(taken=True) from None
    except OSError as exc:
        remove(filled)
        if exc.errno in _NO_LINKS:
            raise NotPublished(taken=False) from None
        raise
    except BaseException:
        remove(filled)
        raise
    remove(filled)
    _sync(target.parent, folder=True)


async def _make_deferred_indexes(store: Store, deferred: Sequence[str] | None) -> None:
    """The indexes :func:`create_schema` left out, made in one transaction from the very SQL the
    migrations hold (as the file stored it before they were dropped, or else every index of the
    format the file lacks), so the published store's schema is the one every store of its
    format has (verify compares it)."""
    if deferred is not None:
        missing = list(deferred)
    else:
        present = {str(row[0]) for row in await store.db.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'index'")}
        missing = [sql for (kind, name), sql in expected_schema().items()
                   if kind == "index" and sql is not None and name not in present]
    if not missing:
        return
    await store.db.execute("BEGIN IMMEDIATE")
    try:
        for sql in missing:
            await store.db.execute(sql)
    except BaseException:
        await store.db.execute("ROLLBACK")
        raise
    await store.db.execute("COMMIT")


# A file system without hard links (some network, FUSE or FAT mounts): the ordinary path then.
_NO_LINKS = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS})


def _sync(path: Path, *, folder: bool = False) -> None:
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if folder else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove(filled: Path) -> None:
    """The filled file and anything SQLite made beside it."""
    for suffix in ("", *SIDECARS):
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{filled}{suffix}")


def remove_stale(target: Path, *, now: float | None = None) -> list[Path]:
    """Remove the hidden files of imports into ``target`` that were killed: their process is
    gone and the file has not changed for ``STALE_SECONDS``. Both, because a process id says
    nothing about another machine or container sharing the folder, where a live import's file
    keeps changing (a fill spills its pages to it as it goes, the commit writes them)."""
    pattern = re.compile(re.escape(f".{target.name}.importing-") + r"(\d+)-[0-9a-f]+")
    removed: list[Path] = []
    now = time.time() if now is None else now
    with contextlib.suppress(OSError):
        for entry in os.scandir(target.parent):
            found = pattern.fullmatch(entry.name)
            if found is None or alive(int(found.group(1))):
                continue
            with contextlib.suppress(OSError):
                if now - entry.stat(follow_symlinks=False).st_mtime < STALE_SECONDS:
                    continue
                remove(Path(entry.path))
                removed.append(Path(entry.path))
    return removed


STALE_SECONDS = 600


