"""The store's pages read once before the first act of an open writes into it (storefault-ten).

A write into a store with a damaged page it did not touch succeeded: a page zeroed in the middle
of the file, ``accept`` said "accepted" (exit 0), and only ``verify`` said ``pages_damaged``
(store-fault-six to storefault-nine, "what stays" 1). A store known damaged then got a green, and
every act written into it added to a file a person has to restore from a copy anyway.

So the first write transaction of each open runs SQLite's ``quick_check`` (every page read, every
b-tree walked; no index compared with its table — verify does that) with the write lock held, and
refuses ``damaged_store``, nothing written, when it finds anything. Once per open: a command makes
one act, the app checks at its first act and not again while it keeps the store open. Measured
(bench/act_page_check.py): 0.2 ms on the 1.6 MB sample store, ~140 ms on a 73 MB one (warm disk
cache). A file of ``CHECK_BELOW`` bytes or more is not read whole per act: there the tables an act
writes are checked — every table but the bulk ones (``BULK``: the events, the material chunks and
the search indexes' own tables), each with its indexes (``quick_check(TABLE)``) — and the bulk tables'
pages are left to ``verify``, which says so (storefault-eleven; before, such a store was not checked
at all per act). An act that writes into a bulk table (an import, a deletion) writes there unchecked.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import aiosqlite

from inspector.domain.errors import InspectorError
from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import line_safe

CHECK_BELOW = 256 * 1024 * 1024  # ~0.5 s of quick_check on this machine under load: a bound per act


async def refuse_damaged(writer: aiosqlite.Connection, path: Path) -> None:
    """Raise ``damaged_store`` when ``quick_check`` finds a damaged page (nothing written yet)."""
    try:
        size = path.stat().st_size
    except OSError:  # gone: check_file says so
        return
    page = int((await writer.execute_fetchall("PRAGMA page_size"))[0][0])
    if size % page:  # SQLite writes whole pages: bytes appended to the file (or a cut) — verify's damaged_store
        raise InspectorError(f"{path} is not a whole number of its {page:,}-byte pages ({size:,} bytes): bytes were "
                             "added to or cut from the file behind the tool; nothing was written — "
                             f"`inspector verify {path}` says the same; restore the store from a copy",
                             code="damaged_store")
    if size < CHECK_BELOW:
        rows = await _quick_check(writer, "")
        what = "SQLite's quick_check"
    else:
        rows = []
        for table in await tables_checked(writer):
            rows += await _quick_check(writer, table)
        rows = rows or ["ok"]
        what = (f"SQLite's quick_check of the tables an act writes; the store is {size / 2**20:,.0f} MiB, so the bulk "
                "tables' pages — events, material chunks, search indexes — are left to verify")
    rows = [row for row in rows if row != "ok"]
    if not rows:
        return
    first = line_safe(rows[0])[:200]
    more = f" and {counted(len(rows) - 1, 'more problem')}" if len(rows) > 1 else ""
    raise InspectorError(f"{path} has damaged pages ({what}: {first}{more}): nothing was written — an "
                         "act written into a damaged store is written into a file to be restored from a copy anyway; "
                         f"`inspector verify {path}` names the damage", code="damaged_store")


# The bulk tables: what grows with the transcripts (raw events, material bytes, the search indexes'
# shadow tables). The rest — sessions, records, summaries, candidates, the ledger, the store's
# metadata — is what an act reads and writes, and a small part of a large store.
BULK = re.compile(r"^(events|material_chunks)$|_(fts|grams)(_[a-z]+)?$")


async def tables_checked(db: aiosqlite.Connection) -> list[str]:
    """The tables a large store's act checks (every ordinary table but the bulk ones), by name."""
    rows = await db.execute_fetchall(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
    return [str(name) for (name,) in rows if not BULK.search(str(name)) and not str(name).startswith("sqlite_")]


async def _quick_check(db: aiosqlite.Connection, table: str) -> list[str]:
    quoted = table.replace('"', '""')
    try:
        return [str(r[0]) for r in await db.execute_fetchall(f'PRAGMA quick_check("{quoted}")' if table
                                                              else "PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:  # a page so damaged the check itself stops
        return [str(exc)]


def said_for_verify(size: int, checked: list[str]) -> str | None:
    """verify's note for a store at or over the bound: what an act checks before it writes there."""
    if size < CHECK_BELOW:
        return None
    return (f"acts on this store ({size / 2**20:,.0f} MiB, over the {CHECK_BELOW / 2**20:,.0f} MiB an act reads whole) "
            f"check the pages of the {len(checked)} tables they write ({', '.join(checked)}) before writing, not the "
            "events', material chunks' or search indexes' pages: a damaged page there is found by verify (this run "
            "read them), not by an act")
