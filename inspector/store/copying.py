"""Reading and writing a store's tables row for row, for copying one store into another.

``inspector migrate`` (inspector/services/migrating.py) copies every record table, the
materials' chunks and the ledger as they are stored: the same columns and values, never
re-derived, so digests, projections and the hash chain come out identical. Only the
surrogate row ids (``rowid``, ``events.event_id``, ``materials.material_id``) are the
target's own: nothing outside a store refers to them, and each backend hands them out
itself — in the order rows arrive, which the copy keeps.

Everything here is written in the small query API both backends offer (``execute``,
``executemany``, ``execute_fetchall``, ``?`` parameters), so the same code copies SQLite
to SQLite, SQLite to PostgreSQL and back. The event search indexes are not copied: the
target builds its own from the copied rows after the copy (inspector/store/catch_up.py), as
after an import; materials' search text is written with each material.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from inspector.domain.sif_schema import IDENTITY_FIELDS
from inspector.store.tables import SPECS, WRITE_ORDER

Row = tuple[Any, ...]
Key = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class CopyTable:
    """One table as the copy sees it: what names a row, which columns carry it, how to page it."""

    name: str
    key: tuple[str, ...]  # identity columns: a row with the same key is "the same row"
    columns: tuple[str, ...]  # every column copied, key columns included
    # The backend-assigned row id pages follow, not copied: rows go into the target in the order
    # they went into the source, so everything listed "in import order" (ORDER BY rowid) stays so.
    surrogate: str | None = None

    @property
    def order(self) -> tuple[str, ...]:
        return (self.surrogate,) if self.surrogate else self.key

    def key_of(self, row: Row) -> Key:
        return tuple(row[self.columns.index(k)] for k in self.key)


def _record_table(type_: str) -> CopyTable:
    spec = SPECS[type_]
    columns = [*spec.columns, *spec.derived, "extra", "digest"]
    if type_ == "material":
        columns.insert(columns.index("extra"), "deleted_at")
    surrogate = {"event": "event_id", "material": "material_id"}.get(type_, "rowid")
    return CopyTable(spec.table, IDENTITY_FIELDS[type_], tuple(columns), surrogate)


LEDGER = CopyTable("ledger", ("seq",), ("seq", "session", "kind", "actor", "at", "payload", "source",
                                          "record_digest", "prev_hash", "hash"))
# Copy order: sessions before what refers to them, materials before their chunks (copied
# with them), the ledger last, so a copy cut short never holds entries for rows it lacks.
TABLES: tuple[CopyTable, ...] = (*(_record_table(t) for t in WRITE_ORDER), LEDGER)
MATERIALS = next(t for t in TABLES if t.name == "materials")
EVENTS = next(t for t in TABLES if t.name == "events")


def _plain(value: Any) -> Any:
    return bytes(value) if isinstance(value, memoryview | bytearray) else value


def fingerprint(row: Row) -> str:
    """A digest of a row's values, to compare rows of two stores without keeping them."""
    h = hashlib.sha256()
    for value in row:
        if isinstance(value, bytes):
            h.update(b"b" + value.hex().encode())
        else:
            h.update(json.dumps(value, ensure_ascii=False).encode("utf-8", errors="surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


async def count(db: Any, table: CopyTable) -> int:
    rows = await db.execute_fetchall(f"SELECT COUNT(*) FROM {table.name}")
    return int(rows[0][0])


async def pages(db: Any, table: CopyTable, batch: int = 2000) -> AsyncIterator[list[tuple[Any, Row]]]:
    """The table's rows in keyset pages, as (position, row) pairs: a long table never sits in
    memory and every page is one query. ``position`` is the surrogate id where there is one."""
    order = table.order
    select = ", ".join([*(c for c in order if c not in table.columns), *table.columns])
    lead = len([c for c in order if c not in table.columns])
    where = ""
    after: tuple[Any, ...] = ()
    while True:
        rows = await db.execute_fetchall(
            f"SELECT {select} FROM {table.name} {where} ORDER BY {', '.join(order)} LIMIT ?", (*after, batch))
        if not rows:
            return
        page = [(row[0] if lead else None, tuple(_plain(v) for v in row[lead:])) for row in rows]
        yield page
        last = rows[-1]
        after = tuple(last[:lead]) if lead else table.key_of(tuple(last))
        if len(order) == 1:
            where = f"WHERE {order[0]} > ?"
        else:
            where = f"WHERE ({', '.join(order)}) > ({', '.join('?' for _ in order)})"
        if len(rows) < batch:
            return


async def fingerprints(db: Any, table: CopyTable) -> dict[Key, str]:
    """Key -> fingerprint of every row the table holds (the target's side of a resumed copy)."""
    found: dict[Key, str] = {}
    async for page in pages(db, table):
        for _pos, row in page:
            found[table.key_of(row)] = fingerprint(row)
    return found


async def insert_rows(db: Any, table: CopyTable, rows: Sequence[Row]) -> None:
    marks = ", ".join("?" for _ in table.columns)
    await db.executemany(f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks})", list(rows))


async def insert_material(db: Any, row: Row) -> int:
    """Insert one material row and return the id the target gave it (its chunks follow)."""
    marks = ", ".join("?" for _ in MATERIALS.columns)
    cur = await db.execute(f"INSERT INTO materials ({', '.join(MATERIALS.columns)}) VALUES ({marks})", row)
    material_id = int(cur.lastrowid or 0)
    await cur.close()
    return material_id


async def chunk_counts(db: Any) -> dict[Key, int]:
    """(session, material id) -> how many chunks the store holds for it."""
    rows = await db.execute_fetchall(
        "SELECT m.session, m.id, COUNT(c.idx) FROM materials m LEFT JOIN material_chunks c "
        "ON c.material_id = m.material_id GROUP BY m.material_id, m.session, m.id")
    return {(r[0], r[1]): int(r[2]) for r in rows}


async def chunks(db: Any, material_id: int, batch: int = 16) -> AsyncIterator[list[tuple[int, bytes]]]:
    """A material's chunks in index order, ``batch`` at a time (16 × 64 KiB: 1 MiB in memory)."""
    after = -1
    while True:
        rows = await db.execute_fetchall(
            "SELECT idx, data FROM material_chunks WHERE material_id = ? AND idx > ? ORDER BY idx LIMIT ?",
            (material_id, after, batch))
        if not rows:
            return
        yield [(int(r[0]), bytes(r[1])) for r in rows]
        after = int(rows[-1][0])
        if len(rows) < batch:
            return


async def insert_chunks(db: Any, material_id: int, rows: Sequence[tuple[int, bytes]]) -> None:
    await db.executemany("INSERT INTO material_chunks (material_id, idx, data) VALUES (?, ?, ?)",
                         [(material_id, idx, data) for idx, data in rows])


async def read_meta(db: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in await db.execute_fetchall("SELECT key, value FROM store_meta")}


async def write_meta(db: Any, items: dict[str, str]) -> None:
    """Set these keys (the digest key above all: every keyed digest in the copy depends on it)."""
    await db.executemany("INSERT INTO store_meta (key, value) VALUES (?, ?) "
                         "ON CONFLICT (key) DO UPDATE SET value = excluded.value", list(items.items()))

