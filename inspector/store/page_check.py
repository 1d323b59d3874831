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
cache); a file over ``CHECK_BELOW`` bytes is not checked per act (said in docs/store-format.md):
there ``verify`` alone says it.
"""

from __future__ import annotations

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
    if size >= CHECK_BELOW:
        return
    try:
        rows = [str(r[0]) for r in await writer.execute_fetchall("PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:  # a page so damaged the check itself stops
        rows = [str(exc)]
    if rows == ["ok"]:
        return
    first = line_safe(rows[0])[:200]
    more = f" and {counted(len(rows) - 1, 'more problem')}" if len(rows) > 1 else ""
    raise InspectorError(f"{path} has damaged pages (SQLite's quick_check: {first}{more}): nothing was written — an "
                         "act written into a damaged store is written into a file to be restored from a copy anyway; "
                         f"`inspector verify {path}` names the damage", code="damaged_store")
