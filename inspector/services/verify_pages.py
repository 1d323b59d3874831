"""verify's check of the database's own pages: SQLite's ``integrity_check`` (``quick_check``
for a large store unless asked for the full one), or PostgreSQL's index checks.

SQLite's report can run to a hundred lines — a damaged root page makes it list every page
below it as never used — and those bury the one line that matters (the first). The person
reads a one-line summary (the first lines and how many more); the problem's ``report`` keeps
every line for ``verify --json``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from inspector.store.connection import Store

SHOWN_INTEGRITY_LINES = 3
# Tables too large for integrity_check's row-by-row index comparison on a large store, whose
# indexes quick_check then leaves unchecked (said in ``not_checked``).
LARGE_TABLES = ("events", "material_chunks")
QUICK_NOT_CHECKED = ("the events' and material chunks' indexes against their rows: quick_check does not compare an "
                     "index with its table (integrity_check does: --full, or a store under 64 MiB); an index entry "
                     "edited alone changes what a lookup through it finds")


def page_check(store: Store, full: bool | None, full_below: int) -> str:
    """Which check runs: ``full`` None means the full one for a store smaller than ``full_below``
    bytes. Named before it runs, so a check that fails outright is still reported as the one tried."""
    if store.dialect == "postgresql":
        return "server_checks"
    size = store.path.stat().st_size if store.path.exists() else 0
    return "integrity_check" if full or (full is None and size < full_below) else "quick_check"


async def check_pages(store: Store, check: str) -> tuple[str, dict[str, Any] | None]:
    """The check that ran (on PostgreSQL, amcheck when installed) and the problem it found, or None."""
    if store.dialect == "postgresql":  # no SQLite pages to check: the server's own checks
        from inspector.store.pg.maintenance import has_amcheck, integrity

        check = "amcheck" if await has_amcheck(store) else "server_checks"
        messages = await integrity(store)
        if messages:
            return check, {"where": "postgresql", "code": "pages_damaged", "message": "index checks found damage: " + "; ".join(messages[:5]),
                           "report": messages}
        return check, None
    try:
        rows = await store.db.execute_fetchall(f"PRAGMA {check}")
    except sqlite3.DatabaseError as exc:
        return check, await _table_by_table(store, check, exc)
    lines = integrity_lines(str(r[0]) for r in rows)
    if lines:
        return check, {"where": "sqlite", "code": "pages_damaged", "message": integrity_summary(check, lines), "report": lines}
    if check == "quick_check":
        return check, await _indexes_of_the_rest(store)
    return check, None


async def _indexes_of_the_rest(store: Store) -> dict[str, Any] | None:
    """``quick_check`` reads every page but does not compare an index with its table: an index's
    entries edited alone (the ledger's ``ledger_kind`` keys ``deletion`` made ``deletioo``) passed
    it, and a re-import then found no deletion through that index and stored every deleted record
    again (hostile review eight). Each table but the large ones is checked in full, with its
    indexes (``integrity_check(TABLE)``): the ledger and the records are a small part of a large store."""
    lines: list[str] = []
    names = await store.db.execute_fetchall(
        "SELECT DISTINCT tbl_name FROM sqlite_schema WHERE type = 'index' ORDER BY tbl_name")
    for (name,) in names:
        if name in LARGE_TABLES:
            continue
        quoted = str(name).replace('"', '""')
        rows = await store.db.execute_fetchall(f'PRAGMA integrity_check("{quoted}")')
        lines += integrity_lines(str(r[0]) for r in rows)
    if not lines:
        return None
    return {"where": "sqlite", "code": "pages_damaged", "report": lines,
            "message": integrity_summary("integrity_check", lines).replace(
                "PRAGMA integrity_check", "PRAGMA integrity_check of the tables but events and material_chunks", 1)}


async def _table_by_table(store: Store, check: str, exc: sqlite3.DatabaseError) -> dict[str, Any]:
    """The whole-file check stopped with an error instead of a report: SQLite does that for
    some damage (a table's root page made invalid on 16 KiB pages, where on 4 KiB pages it lists
    the pages lost). Checked again one table at a time, so the report names the tables whose
    pages cannot be read and what the others' checks found."""
    lines: list[str] = []
    names = await store.db.execute_fetchall(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY rootpage")
    for (name,) in names:
        quoted = str(name).replace('"', '""')
        try:
            rows = await store.db.execute_fetchall(f'PRAGMA {check}("{quoted}")')
        except sqlite3.DatabaseError as table_exc:
            lines.append(f"table {name}: SQLite cannot read its pages ({table_exc})")
            continue
        lines += integrity_lines(str(r[0]) for r in rows)
    if not lines:
        lines.append("no single table's check finds it: the damage is outside the tables (the schema, free pages)")
    return {"where": "sqlite", "code": "pages_damaged", "report": lines,
            "message": f"PRAGMA {check} stopped ({exc}); table by table it " + integrity_summary(check, lines)
            .removeprefix(f"PRAGMA {check} ")}


def integrity_lines(rows: Iterable[str]) -> list[str]:
    """SQLite's integrity report as one problem a line: a row may hold many lines, and its
    ``*** in database main ***`` heading says nothing a reader needs."""
    out: list[str] = []
    for row in rows:
        if row == "ok":
            continue
        out += [line.strip() for line in row.splitlines() if line.strip() and not line.startswith("*** in database")]
    return out


def integrity_summary(check: str, lines: list[str]) -> str:
    """One line: the first problems and how many more, and where the rest are."""
    shown = "; ".join(lines[:SHOWN_INTEGRITY_LINES])
    rest = len(lines) - SHOWN_INTEGRITY_LINES
    more = f" (and {rest} more line{'s' if rest != 1 else ''}: verify --json lists them all)" if rest > 0 else ""
    return f"PRAGMA {check} found {len(lines)} problem{'s' if len(lines) != 1 else ''} in the file's pages: {shown}{more}"
