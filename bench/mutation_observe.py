"""What a person sees of a store, as one digest per view: used to tell an edit verify does not
report from one that changed nothing anyone can see.

The views: ``export`` of the whole store (every record, material bytes included), ``ledger``
and ``sessions`` as JSON, three searches per session (a 1-, 2- and 3-character query from the
session's first text, after the search index caught up, as the first search does), one search
for a material's words, and the search indexes' contents as FTS5 reads them back (every term,
document and position). Each runs on a copy (a search catches the index up: a write).
"""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from bench.mutation_stores import _quiet_env

Queries = list[tuple[str, str]]  # (session, query)


def queries(path: Path) -> Queries:
    """The searches to run, chosen from the untouched store (the same for every edited copy)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        out: Queries = []
        for (sid,) in con.execute("SELECT id FROM sessions ORDER BY rowid"):
            row = con.execute("SELECT content FROM events WHERE session = ? AND length(content) >= 6 ORDER BY seq "
                              "LIMIT 1", (sid,)).fetchone()
            if row is not None:
                text = str(row[0]).strip() or str(row[0])
                out += [(sid, text[:1]), (sid, text[:2]), (sid, text[:3])]
        row = con.execute("SELECT m.session, f.text FROM materials_fts f JOIN materials m ON m.material_id = f.rowid "
                          "WHERE length(f.text) >= 8 LIMIT 1").fetchone()
        if row is not None:
            out.append((str(row[0]), str(row[1])[2:8]))
        row = con.execute("SELECT e.session, f.text FROM calls_fts f JOIN events e ON e.event_id = f.rowid "
                          "WHERE length(f.text) >= 8 LIMIT 1").fetchone()  # what an agent ran (format 5)
        if row is not None:
            out += [(str(row[0]), str(row[1])[:2]), (str(row[0]), str(row[1])[:6])]
        row = con.execute("SELECT e.session, f.text FROM reasoning_fts f JOIN events e ON e.event_id = f.rowid "
                          "WHERE length(f.text) >= 8 LIMIT 1").fetchone()  # what a model thought (format 6)
        if row is not None:
            out += [(str(row[0]), str(row[1])[:2]), (str(row[0]), str(row[1])[:6])]
        return out
    finally:
        con.close()


def _index_contents(path: Path) -> str:
    digest = hashlib.sha256()
    con = sqlite3.connect(path)
    try:
        for table, kind in (("events_fts", "instance"), ("materials_fts", "instance"), ("events_grams", "instance"),
                            ("calls_fts", "instance"), ("calls_grams", "instance"), ("reasoning_fts", "instance"),
                            ("reasoning_grams", "instance")):
            try:
                con.execute(f"CREATE VIRTUAL TABLE temp.v_{table} USING fts5vocab(main, {table}, {kind})")
                rows = con.execute(  # per term: its entries summed (the index read whole, a few rows kept)
                    f"SELECT term, COUNT(*), SUM(doc), SUM((doc * 2654435761) % 4294967311), "
                    f"SUM(((doc + 1) * (IFNULL(offset, 0) + 7)) % 1000003) FROM temp.v_{table} GROUP BY term"
                ).fetchall()
            except sqlite3.Error as exc:
                rows = [("unreadable", str(exc))]
            digest.update(repr(rows).encode("utf-8", "surrogatepass"))
    finally:
        con.close()
    return digest.hexdigest()


def observe(path: Path, folder: Path, searches: Queries) -> dict[str, str]:
    """view -> digest of what it shows (the services the commands call, on one open copy)."""
    copy = folder / "observed.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
        if Path(f"{path}{suffix}").exists():
            shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
    with _quiet_env(folder):
        views = asyncio.run(_views(copy, folder / "observed.jsonl", searches))
    views["indexes"] = _index_contents(copy)
    return {k: hashlib.sha256(v.encode("utf-8", "surrogatepass")).hexdigest() for k, v in views.items()}


async def _views(copy: Path, exported: Path, searches: Queries) -> dict[str, str]:
    from inspector.services import exporting, search, sessions
    from inspector.store.connection import open_store

    views: dict[str, str] = {}
    try:
        store = await open_store(copy)
    except Exception as exc:  # noqa: BLE001 - a store that no longer opens is what a person sees
        return {"open": f"{type(exc).__name__}: {exc}"}
    async with store:
        async def view(name: str, read: Any) -> None:
            try:
                views[name] = repr(await read())
            except Exception as exc:  # noqa: BLE001 - an error is what the person sees
                views[name] = f"{type(exc).__name__}: {exc}"

        async def export() -> str:
            exported.unlink(missing_ok=True)
            await exporting.export_sif(store, exported, None)
            return exported.read_text("utf-8", "surrogateescape")
        await view("export", export)
        await view("ledger", lambda: sessions.session_ledger(store))
        await view("sessions", lambda: sessions.list_sessions(store))
        for sid, query in searches:
            await view(f"search {sid} {query!r}", lambda sid=sid, query=query: search.search(store, sid, query))
    return views


def differences(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
