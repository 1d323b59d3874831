"""Writing parsed sif records into a store inside one transaction.

Shared by import (a whole file) and by services that add a record (a correction's new
state version, a handed-off session), so every row is written and digested one way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import aiosqlite

from inspector.domain.errors import BadInput
from inspector.domain.sif import SifRecord
from inspector.domain.sif_schema import IDENTITY_FIELDS
from inspector.store import materials
from inspector.store.tables import SPECS, WRITE_ORDER

Progress = Callable[[int], None]


async def existing_digests(db: aiosqlite.Connection, type_: str, session: str) -> dict[tuple[Any, ...], str]:
    spec = SPECS[type_]
    ident = IDENTITY_FIELDS[type_]
    where = "id = ?" if type_ == "session" else "session = ?"
    async with db.execute(f"SELECT {', '.join(ident)}, digest FROM {spec.table} WHERE {where}", (session,)) as cur:
        rows = await cur.fetchall()
    return {tuple(row[:-1]): row[-1] for row in rows}


async def write_records(
    db: aiosqlite.Connection,
    records: Sequence[SifRecord],
    stored_sessions: set[str],
    *,
    session_versions: dict[str, int],
    progress: Progress | None = None,
) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]], list[SifRecord]]:
    """Insert new records, skip identical ones, refuse conflicting ones (by line).

    Returns (added, skipped) counted per (session, type), and the records added.
    """
    added: Counter[tuple[str, str]] = Counter()
    skipped: Counter[tuple[str, str]] = Counter()
    written: list[SifRecord] = []
    by_type: dict[str, list[SifRecord]] = {t: [] for t in WRITE_ORDER}
    for rec in records:
        if rec.type in by_type:
            by_type[rec.type].append(rec)
    for type_ in WRITE_ORDER:
        batch = by_type[type_]
        if not batch:
            continue
        known: dict[str, dict[tuple[Any, ...], str]] = {}
        fresh: list[SifRecord] = []
        for rec in batch:
            session = rec.session
            if session in stored_sessions:
                if session not in known:
                    known[session] = await existing_digests(db, type_, session)
                prior = known[session].get(rec.identity)
                if prior is not None:
                    if prior != rec.digest:
                        raise BadInput(
                            f"{type_} {_name(rec)} differs from the one already in the store "
                            "(same identity, different content); nothing was written",
                            code="conflicting_record", line=rec.line)
                    skipped[(session, type_)] += 1
                    continue
            fresh.append(rec)
            added[(session, type_)] += 1
        if type_ == "material":
            for rec in fresh:
                await _write_material(db, rec)
        elif type_ == "session":
            spec = SPECS[type_]
            await db.executemany(spec.insert_sql, [
                spec.to_row(r.record, r.digest, (session_versions.get(r.session, 1),)) for r in fresh])
        else:
            spec = SPECS[type_]
            await db.executemany(spec.insert_sql, [spec.to_row(r.record, r.digest) for r in fresh])
        written.extend(fresh)
        if progress is not None:
            progress(len(batch))
    return added, skipped, written


def _name(rec: SifRecord) -> str:
    parts = rec.identity[1:] if rec.type != "session" else rec.identity
    return " / ".join(repr(p) for p in parts)


async def _write_material(db: aiosqlite.Connection, rec: SifRecord) -> None:
    spec = SPECS["material"]
    data = rec.payload or b""
    lay = materials.layout_for(data, rec.record["content_hash"])
    text = materials.searchable_text(data, rec.record["encoding"], rec.record.get("media_type"))
    row = spec.to_row(
        rec.record, rec.digest,
        (lay.size, lay.chunk_size, lay.chunk_count, lay.chunk_hashes, lay.chunk_binding,
         lay.indexed_bytes if text is not None else 0),
    )
    cur = await db.execute(spec.insert_sql, row)
    material_id = int(cur.lastrowid or 0)
    await cur.close()
    await materials.write_chunks(db, material_id, data, lay.chunk_size)
    if text:
        await db.execute("INSERT INTO materials_fts (rowid, text) VALUES (?, ?)", (material_id, text))
