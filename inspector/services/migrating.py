"""Copy a whole store into another one, exactly, and prove it: ``inspector migrate``.

A team moving from one reviewer's SQLite file to a shared PostgreSQL server (or back)
needs the same store there, not a re-import: re-importing would append new ledger entries
under a new digest key, so the ledger head every reviewer pinned would no longer exist.
So the copy takes every row as stored (inspector/store/copying.py) — records with their
projections, materials chunk by chunk, the ledger's entries with their hashes, and the
store's digest key — and ends by verifying the target and comparing the two ledger heads.

It commits as it goes (a page of rows, or one material with all its chunks, per
transaction), so a copy cut short leaves a prefix, and running it again carries on: a row
already in the target and identical is skipped. A target that holds anything else — a row
that differs, a row the source lacks, another store's digest key — is refused before
anything is written (``target_differs``, ``different_store``).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.domain.errors import BadInput, InspectorError
from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import inert
from inspector.services.verifying import VerifyReport, verify_store
from inspector.store import copying, ledger, migration_marker
from inspector.store.catch_up import catch_up
from inspector.store.connection import Store, open_store
from inspector.store.copying import CopyTable, Key
from inspector.store.location import StoreTarget, StoreUrl, store_target

ProgressFn = Callable[[str, int, int], None]
SEARCH_STEP = "events for search"  # the progress step after the tables: the target's search index


def location(text: str | os.PathLike[str]) -> StoreTarget:
    """A store named on the command line: a postgresql:// URL, or a path."""
    return store_target(os.fspath(text))


def shown(where: StoreTarget) -> str:
    """How a store is named in output: its path, or its URL without the password."""
    return str(where)


def _named(where: StoreTarget) -> str:
    """The source as the unfinished-copy mark names it: a file by its absolute path."""
    return str(where.resolve()) if isinstance(where, Path) else shown(where)


def _same_place(a: StoreTarget, b: StoreTarget) -> bool:
    if isinstance(a, Path) and isinstance(b, Path):
        return a.resolve() == b.resolve()
    return isinstance(a, StoreUrl) and isinstance(b, StoreUrl) and a.shown == b.shown


@dataclass(slots=True)
class TableCount:
    source: int = 0
    copied: int = 0
    already: int = 0  # in the target before this run, identical

    def as_dict(self) -> dict[str, int]:
        return {"source": self.source, "copied": self.copied, "already": self.already}


@dataclass(slots=True)
class MigrateReport:
    source: str
    target: str
    created_target: bool = False
    tables: dict[str, TableCount] = field(default_factory=dict)
    chunks_copied: int = 0
    bytes_copied: int = 0
    source_head: dict[str, Any] = field(default_factory=dict)
    target_head: dict[str, Any] = field(default_factory=dict)
    verify: VerifyReport | None = None
    seconds: float = 0.0
    finished_unfinished: str | None = None  # when the run this one finished had started (its mark's time)

    @property
    def heads_match(self) -> bool:
        return bool(self.source_head) and self.source_head == self.target_head

    @property
    def ok(self) -> bool:
        return self.heads_match and self.verify is not None and self.verify.ok

    def as_dict(self) -> dict[str, Any]:
        v = self.verify
        return {
            "ok": self.ok, "source": self.source, "target": self.target, "created_target": self.created_target,
            "tables": {name: c.as_dict() for name, c in self.tables.items()},
            "material_chunks": {"copied": self.chunks_copied, "bytes": self.bytes_copied},
            "source_head": self.source_head, "target_head": self.target_head, "heads_match": self.heads_match,
            "verify": None if v is None else {"ok": v.ok, "entries": v.entries, "integrity": v.integrity,
                                              "first_break": v.first_break, "problems": v.problems[:10]},
            "seconds": round(self.seconds, 3), "finished_unfinished": self.finished_unfinished,
        }


def _name_key(table: CopyTable, key: Key) -> str:
    return f"{table.name} " + " / ".join(inert(k) for k in key)


class _Copier:
    """One run: check what the target holds against the source, then copy what it lacks."""

    def __init__(self, src: Store, dst: Store, report: MigrateReport, progress: ProgressFn | None,
                 source_named: str) -> None:
        self.src, self.dst, self.report, self.progress = src, dst, report, progress
        self.source_named = source_named  # the source as a command run from anywhere can name it
        self.present: dict[str, set[Key]] = {}

    async def run(self) -> None:
        src_meta = await copying.read_meta(self.src.db)
        src_meta.pop(migration_marker.KEY, None)  # never a copy in progress: open_store refuses those
        earlier = await migration_marker.read(self.dst.db)
        if earlier is not None:
            self.report.finished_unfinished = str(earlier.get("started_at") or "an earlier run")
        dst_empty = await self._target_empty()
        if dst_empty:
            async with self.dst.transaction() as db:  # the copy's keyed digests need the source's key
                await copying.write_meta(db, src_meta)
                await migration_marker.mark(db, self.source_named)
            self.present = {t.name: set() for t in copying.TABLES}
        else:
            dst_meta = await copying.read_meta(self.dst.db)
            if dst_meta.get("digest_key") != src_meta.get("digest_key"):
                raise BadInput(f"{self.report.target} already holds another store (its digest key differs from "
                               f"{self.report.source}'s); migrate copies into an empty store or one holding part of "
                               "this same store; nothing was written", code="different_store")
            await self._check_target()
        for table in copying.TABLES:
            counts = self.report.tables.setdefault(table.name, TableCount())
            counts.source = await copying.count(self.src.db, table)
            counts.already = len(self.present[table.name])
        if earlier is None and not dst_empty and any(c.source > c.already for c in self.report.tables.values()):
            async with self.dst.transaction() as db:  # a grown source: the target is partial until the end
                await migration_marker.mark(db, self.source_named)
        for table in copying.TABLES:
            if table is copying.MATERIALS:
                await self._copy_materials()
            else:
                await self._copy_table(table)
        self.report.source_head = _head(await ledger.ledger_tail(self.src.db))

    async def _target_empty(self) -> bool:
        for table in (copying.TABLES[0], copying.LEDGER):
            if await copying.count(self.dst.db, table):
                return False
        return True

    async def _check_target(self) -> None:
        """Every row the target holds must be the source's row with that key, unchanged."""
        for table in copying.TABLES:
            held = await copying.fingerprints(self.dst.db, table)
            matched = 0
            if held:
                async for page in copying.pages(self.src.db, table):
                    for _pos, row in page:
                        key = table.key_of(row)
                        fp = held.get(key)
                        if fp is None:
                            continue
                        if fp != copying.fingerprint(row):
                            raise BadInput(f"{self.report.target} holds {_name_key(table, key)} with other values "
                                           f"than {self.report.source}: it is not a copy of this store in progress; "
                                           "nothing was written", code="target_differs")
                        matched += 1
            if matched < len(held):
                seen = {table.key_of(row) async for page in copying.pages(self.src.db, table) for _p, row in page}
                extra = next(k for k in held if k not in seen)
                raise BadInput(f"{self.report.target} holds {counted(len(held) - matched, 'row')} of {table.name} that "
                               f"{self.report.source} does not (first: {_name_key(table, extra)}); nothing was "
                               "written", code="target_differs")
            self.present[table.name] = set(held)
        src_chunks = await copying.chunk_counts(self.src.db)
        for key, n in (await copying.chunk_counts(self.dst.db)).items():
            if src_chunks.get(key) != n:
                raise BadInput(f"{self.report.target} holds {counted(n, 'chunk')} of material {inert(key[1])} in session "
                               f"{inert(key[0])}, {self.report.source} {src_chunks.get(key, 0)}; nothing was written",
                               code="target_differs")

    def _tick(self, table: CopyTable, done: int) -> None:
        if self.progress is not None:
            self.progress(table.name, done, self.report.tables[table.name].source)

    async def _copy_table(self, table: CopyTable) -> None:
        present = self.present[table.name]
        counts = self.report.tables[table.name]
        done = 0
        async for page in copying.pages(self.src.db, table):
            rows = [row for _pos, row in page if not present or table.key_of(row) not in present]
            if rows:
                async with self.dst.transaction() as db:
                    await copying.insert_rows(db, table, rows)
                counts.copied += len(rows)
            done += len(page)
            self._tick(table, done)

    async def _copy_materials(self) -> None:
        """One material per transaction, its chunks streamed a batch at a time."""
        table = copying.MATERIALS
        present = self.present[table.name]
        counts = self.report.tables[table.name]
        done = 0
        async for page in copying.pages(self.src.db, table, batch=200):
            for source_id, row in page:
                done += 1
                if present and table.key_of(row) in present:
                    continue
                async with self.dst.transaction() as db:
                    new_id = await copying.insert_material(db, row)
                    async for batch in copying.chunks(self.src.db, int(source_id)):
                        await copying.insert_chunks(db, new_id, batch)
                        for _idx, data in batch:
                            self.report.chunks_copied += 1
                            self.report.bytes_copied += len(data)
                    # its search text: indexed by the catch-up after the copy, as after an import (format 4)
                counts.copied += 1
                self._tick(table, done)
        self._tick(table, done)


def _head(tail: tuple[int, str]) -> dict[str, Any]:
    return {"seq": tail[0], "hash": tail[1]}


def _exists(where: StoreTarget) -> bool:
    return isinstance(where, Path) and where.exists()  # an empty file is refused by open_store, never made over


def _remove_sqlite(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{path}{suffix}")


async def migrate(source: StoreTarget | str, target: StoreTarget | str, *, progress: ProgressFn | None = None) -> MigrateReport:
    """Copy ``source`` into ``target`` (created when missing), then verify the target and
    compare ledger heads. Bad input (no source, not a store, unreachable server, a target
    holding something else) raises before anything is written."""
    started = time.perf_counter()
    source, target = store_target(source), store_target(target)
    report = MigrateReport(source=shown(source), target=shown(target))
    if _same_place(source, target):
        raise BadInput(f"{report.source} is both the source and the target; nothing was written", code="same_store")
    src = await open_store(source)  # an older source read through an upgraded copy, left at its format
    try:
        created = isinstance(target, Path) and not _exists(target)
        dst = await _open_target(target)
        try:
            # On PostgreSQL other writers to the target wait until the copy and its verify end,
            # instead of slipping in between its pages or ahead of the head it compares.
            async with dst.writes_held():
                try:
                    async with src.snapshot():  # one consistent state of the source, however long the copy
                        await _Copier(src, dst, report, progress, _named(source)).run()
                    # The copied events get the target's own ids: its search index is built from
                    # them (as after an import), so a search on the target answers at once.
                    await catch_up(dst, None if progress is None else lambda done, total: progress(
                        SEARCH_STEP, done, total))
                    async with dst.transaction() as db:  # every row is in: the target is a store again
                        await migration_marker.clear(db)
                except BaseException:
                    if created and isinstance(target, Path):
                        await dst.close()
                        _remove_sqlite(target)
                    raise
                # read-only: no writer, and on PostgreSQL no wait for the lock this copy holds
                async with await open_store(target, read_only=True) as reopened:  # with the copied digest key
                    report.verify = await verify_store(reopened)
        finally:
            await dst.close()
        report.created_target = created or bool(getattr(dst, "created", False))  # or tables made in an empty database
    finally:
        await src.close()
    report.target_head = dict(report.verify.head)
    report.seconds = time.perf_counter() - started
    return report


async def _open_target(target: StoreTarget) -> Store:
    store = await open_store(target, create=True, unfinished=True)  # a copy cut short is this run's to finish
    if store.read_only:
        await store.close()
        raise InspectorError(f"{shown(target)} cannot be written ({store.read_only_reason})", code="read_only")
    return store
