"""Verify a store: the ledger's hash chain, a replay of the projections it vouches for,
the seals of every act's rows, and SQLite's own page checks. What is checked, and nothing
more is claimed (docs/store-format.md, "What verify can and cannot detect"):

1. every ledger entry's payload is JSON and its hash recomputes from its body and the
   previous hash; seqs run without a gap; with ``head`` (``SEQ:HASH`` a person pinned
   earlier) the entry at SEQ still has that hash, so a cut or recomputed tail shows
   (verify_chain.py);
2. each session's context_version and goal_revision equal the last values the ledger
   recorded, and the sessions are stored in the order it created them (verify_rows.py);
3. each session's record counts equal what the ledger says was added (minus removed);
4. every record row's identity digest recomputed from its columns (a naive in-place edit);
5. each (session, type)'s rows against the seal of the last entry that changed them
   (inspector/store/seals.py): an edit with a recomputed row digest, a row added, removed
   or reordered;
6. every status (state record, action, candidate, handoff, deletion request) equal to a
   replay of the ledger: the status each import or act set, else the type's default;
   every tombstone covered by a deletion (at its time) and every deletion's copies gone
   (replay.py);
7. every ``action.reconcile`` entry names its evidence and reason (an unknown outcome never
   changes without them);
8. every material's chunk list bound to its content hash, and that binding equal to the
   one its import bound in the ledger (chunks rewritten and rebound); its layout (size,
   chunk count and sizes, indexed prefix) recomputed from its chunks; its bytes rehashed
   when the stored materials are small or with ``full`` (verify_materials.py, verify_layout.py);
9. the search indexes' coverage of the events (up to the watermark) and of the materials,
   and their text against what they index (verify_index_text.py; what a default run skips
   is listed in ``not_checked``);
10. ``store_meta`` and ``search_watermark`` hold only the rows the inspector writes (verify_meta.py);
11. the schema is the format's: guards, triggers, indexes, views (verify_layout.py);
12. every column declared TEXT, INTEGER or BLOB holds that type (verify_types.py), first;
13. ``PRAGMA quick_check`` (``integrity_check`` for small stores or with ``full``);
14. the head this machine's last good verify saw is still in the ledger (verify_remembered.py);
15. the file's length against its page size and its header's page count, first: a store cut
    short is ``damaged_store`` even where SQLite still opens it (services/verify_length.py).

Every problem has a stable ``code`` (verify_report.py); what verify does not bind, and what
it relies on, is one list (verify_coverage.py). A store SQLite cannot read past some page, or
a JSON column that no longer parses, is reported as a break, never as a traceback.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from typing import Any

from inspector.domain.errors import StoreBusy, StoreFileChanged
from inspector.services import (
    verify_chain,
    verify_index_text,
    verify_layout,
    verify_length,
    verify_materials,
    verify_meta,
    verify_pages,
    verify_remembered,
    verify_rows,
    verify_types,
)
from inspector.services.replay import check_bindings
from inspector.services.verify_report import CODES, VerifyReport, parse_head
from inspector.store import deletion_residue, file_writes, held_files, page_check
from inspector.store.connection import Store
from inspector.store.schema import APPLICATION_ID

__all__ = ["CODES", "FULL_CHECK_BELOW", "VerifyReport", "cut_report", "damaged_report", "parse_head", "unfinished_report",
           "verify_store"]

FULL_CHECK_BELOW = 64 << 20  # stores smaller than this get PRAGMA integrity_check by default


async def verify_store(store: Store, *, head: tuple[int, str] | None = None, full: bool | None = None,
                       progress: Callable[[int, int], None] | None = None, forget: bool = False) -> VerifyReport:
    """``progress(done, total)`` is called every 250 ledger entries (the app's progress line);
    ``forget``: drop the head remembered for this store first (it was replaced on purpose)."""
    report = VerifyReport()
    if forget:
        verify_remembered.forget_head(store)
    try:
        if store.dialect == "sqlite" and store.path.exists():  # a large store's acts check only part of its pages
            report.act_page_check = page_check.said_for_verify(store.path.stat().st_size,
                                                               await page_check.tables_checked(store.db))
        await _verify(store, report, head, full, progress)
        if report.integrity == "quick_check":
            report.not_checked.append(verify_pages.QUICK_NOT_CHECKED)
        await verify_remembered.check_remembered(store, report, head)
        report.deleted_text_in_file = await deletion_residue.pending(store)  # left after the open tried to finish it
        report.deletion_finished = getattr(store, "deletion_finished", None)  # what that open finished
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a page SQLite cannot read: damaged there
        failed = file_writes.read_fault(held_files.held())  # the disk, not the file (store/file_writes.py)
        report.fail({"where": "sqlite", "code": "sqlite_unreadable",
                     "message": f"SQLite cannot read the store past this point ({exc}); run verify --full and "
                                "restore from a copy" if failed is None else
                                f"SQLite cannot read the store past this point ({exc}): the disk under it fails to "
                                f"read ({failed.strerror or failed}), so the file itself may be whole — copy it from "
                                "a working medium, then verify the copy"})
    return report


SQLITE_HEADER = b"SQLite format 3\x00"


def unfinished_report(exc: Exception) -> VerifyReport | None:
    """A copy ``migrate`` has not finished (store/migration_marker.py) holds part of a store: a
    break to report (exit 1) with the refusal's sentence — what it is a copy of and how to
    finish it — not a chain to check. None for any other error."""
    if getattr(exc, "code", "") != "migration_unfinished":
        return None
    report = VerifyReport()
    report.fail({"where": "store_meta", "code": "migration_unfinished", "message": str(exc)})
    return report


def cut_report(path: Any) -> VerifyReport | None:
    """A store file cut short (services/verify_length.py), judged before SQLite opens it: a
    ``damaged_store`` break (exit 1) without opening it — so nothing (a checkpoint of what its
    WAL holds, a format upgrade) writes to it. None when its length is whole."""
    problem = verify_length.cut_short(path, APPLICATION_ID)
    if problem is None:
        return None
    report = VerifyReport()
    report.fail(problem)
    return report


def damaged_report(path: Any, exc: Exception) -> VerifyReport | None:
    """A file that begins as an SQLite database but cannot be opened as a store any more (a cut
    tail, damaged pages, a damaged key) was a store: that is a break to report (exit 1), not bad
    input. None for anything else (not SQLite, a folder, a URL): those stay exit 3."""
    if getattr(exc, "code", "") == "format_number_differs":  # set behind the tool: a break to report, named
        report = VerifyReport()
        report.fail({"where": "sqlite", "code": "format_number_differs", "message": str(getattr(exc, "message", exc))})
        return report
    if getattr(exc, "code", "") not in ("not_a_store", "damaged_store"):  # damaged_store: a store's header, unreadable
        return None
    try:
        if not os.path.isfile(path):  # a FIFO would block the read below for ever; a folder, a URL: not a store
            return None
        with open(path, "rb") as f:
            header = f.read(100)
    except (OSError, TypeError, ValueError):
        return None
    if not header.startswith(SQLITE_HEADER) or \
            int.from_bytes(header[68:72], "big") != APPLICATION_ID:  # SQLite, and the inspector's own
        return None
    report = VerifyReport()
    report.fail({"where": "sqlite", "code": "damaged_store",
                 "message": f"the store cannot be read any more ({exc}): its file was cut short, or its pages or "
                            "its key were damaged; restore it from a copy"})
    return report


async def _verify(store: Store, report: VerifyReport, head: tuple[int, str] | None, full: bool | None,
                  progress: Callable[[int, int], None] | None = None) -> None:
    if store.dialect != "postgresql":  # a cut inside a page opens, and its zeros would blame a record
        cut = await asyncio.to_thread(verify_length.cut_short, store.path, APPLICATION_ID)
        if cut is not None:
            report.fail(cut)
    async with store.snapshot():
        report.integrity = verify_pages.page_check(store, full, FULL_CHECK_BELOW)
        report.integrity, problem = await verify_pages.check_pages(store, report.integrity)
        if problem is not None:
            report.fail(problem)
        if await verify_types.check_types(store, report.fail):  # a value of another type: nothing reads it right
            return
        facts = await verify_chain.walk(store, report, head, progress)
        await verify_rows.check_sessions(store, facts.versions, report)
        await verify_rows.check_session_order(store, list(facts.created), report)
        await verify_rows.check_counts(store, facts.counts, report)
        await verify_rows.check_digests(store, report)
        await verify_rows.check_seals(store, facts.sealed, report)
        await facts.replay.compare(store, report.fail)
        await check_bindings(store, report.fail, facts.replay.unbound)
        report.bytes_rehashed = bool(full) or (
            full is None and await verify_materials.material_bytes(store) < FULL_CHECK_BELOW)
        await verify_materials.check_materials(store, report, report.bytes_rehashed)
        await verify_layout.check_material_layout(store, report.fail)
        await verify_meta.check_meta(store, report)
        await verify_meta.check_watermark_rows(store, report)
        report.search_index = await verify_layout.check_event_index(store, report.fail)
        skipped = await verify_layout.check_guards(store, report.fail)  # last: the edit it hints at is named first
    # FTS5 compares an index with its text only through a statement spelled as a write, and the
    # short-query index is rebuilt in a temporary table: both need the writer (nothing is changed)
    writable = store.dialect != "postgresql" and not store.read_only and store.has_writer
    if not writable:
        async with store.snapshot():
            report.not_checked = await verify_index_text.check_index_text(store, report.fail, full, writable=False)
        report.not_checked += [skipped] if skipped else []
        return
    try:
        async with store.transaction():
            report.not_checked = await verify_index_text.check_index_text(store, report.fail, full, writable=True)
            raise _RolledBack  # rolled back, never committed: verify leaves the file byte for byte as it was
    except _RolledBack:
        pass
    except StoreBusy:  # another program's write held the store past the wait (store-fault-six): verify
        # said only "store_busy … nothing was written" and no report; the index text is read as a
        # read-only store's is, and what that leaves out is in not_checked.
        async with store.snapshot():
            report.not_checked = await verify_index_text.check_index_text(
                store, report.fail, full, writable=False,
                why="needs the writer, which another program's write held past the wait")
    except StoreFileChanged as exc:  # the file under an open store was cut, replaced or deleted: no write
        # transaction is taken on it (even one rolled back); the index text is read as a read-only store does.
        # A cut was already the first break (verify_length, above); a file replaced or deleted is named here.
        if not any(p.get("code") == "damaged_store" for p in report.problems):
            report.fail({"where": "sqlite", "code": "damaged_store",
                         "message": f"{exc.message} (what was verified is the file this store opened)"})
        async with store.snapshot():
            report.not_checked = await verify_index_text.check_index_text(store, report.fail, full, writable=False)


class _RolledBack(Exception):
    """Ends verify's write transaction with a rollback."""
