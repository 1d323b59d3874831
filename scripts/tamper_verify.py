"""Edit every table and column of a store with sqlite3 (bypassing the inspector) and say,
for each edit, whether ``verify`` reports it.

    python scripts/tamper_verify.py STORE [--json]

STORE is left untouched: each edit is made on a fresh copy, with the append-only guard
triggers dropped and put back (as a careful editor would). Edits: one byte (or one unit)
changed in every column of a middle row of every table, that row deleted, the last row
deleted, a rowid moved, two rows reordered; each record type edited and added with its row
digest recomputed; a ledger entry rewritten with its hash recomputed (middle and last);
two chunks swapped; a session's version changed; a guard dropped. Each result is
``reported``, ``missed``, ``refused by SQLite`` (a UNIQUE constraint: the edit cannot be
made), ``not a store`` (exit 3) or ``traceback``. docs/store-format.md lists why each edit
that stays unreported is harmless. Build a store with every kind of act first, e.g. the
sample sessions plus an accept, a correction, a rejection, a handoff, a rebuild, a deletion
and a search.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.domain.canonical import canonical_json, ledger_hash  # noqa: E402
from inspector.domain.errors import InspectorError  # noqa: E402
from inspector.domain.sif import identity_digest  # noqa: E402
from inspector.services.verifying import verify_store  # noqa: E402
from inspector.store.connection import open_store  # noqa: E402
from inspector.store.ledger import entry_body  # noqa: E402
from inspector.store.tables import SPECS  # noqa: E402

Edit = Callable[[sqlite3.Connection], Any]
TABLES = ("sessions", "events", "tool_defs", "materials", "material_chunks", "stubs", "state_records", "actions",
          "summaries", "candidates", "handoffs", "deletion_requests", "ledger", "store_meta", "search_watermark")
IDENTITY = {"state_records": "key", "events": "seq", "summaries": "generation", "stubs": "id", "actions": "id",
            "candidates": "id", "handoffs": "id", "tool_defs": "name", "sessions": "id", "materials": "id",
            "deletion_requests": "id"}


def _verify(path: Path) -> str:
    async def run() -> str:
        try:
            async with await open_store(path) as store:
                return "reported" if not (await verify_store(store)).ok else "missed"
        except InspectorError as exc:
            return f"not a store ({exc.code})"
        except Exception as exc:  # noqa: BLE001 - what this script looks for
            return f"traceback ({type(exc).__name__}: {exc})"
    return asyncio.run(run())


def attempt(base: Path, work: Path, edit: Edit, keep_guards: bool = True) -> str:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{work}{suffix}").unlink(missing_ok=True)
    shutil.copy(base, work)
    con = sqlite3.connect(work)
    con.isolation_level = None
    con.execute("BEGIN")
    guards = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    try:
        for name, _ in guards:
            con.execute(f"DROP TRIGGER {name}")
        edit(con)
        for _, sql in guards if keep_guards else ():
            con.execute(sql)
        con.execute("COMMIT")
    except sqlite3.Error as exc:
        con.execute("ROLLBACK")
        return f"refused by SQLite ({exc})"
    finally:
        con.close()
    return _verify(work)


def _flip(value: Any) -> Any:
    if value is None:
        return "x"
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, bytes):
        data = bytearray(value or b"\0")
        data[len(data) // 2] ^= 1
        return bytes(data)
    text = str(value) or "x"
    i = len(text) // 2
    return text[:i] + chr(ord(text[i]) ^ 1) + text[i + 1:]


def _redigest(con: sqlite3.Connection, table: str, rowid: int) -> None:
    type_ = next(t for t, s in SPECS.items() if s.table == table)
    spec = SPECS[type_]
    row = con.execute(f"SELECT {spec.select_columns} FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
    con.execute(f"UPDATE {table} SET digest = ? WHERE rowid = ?", (identity_digest(type_, spec.to_record(row)), rowid))


def edits(base: Path) -> list[tuple[str, str, str, Edit, bool]]:
    con = sqlite3.connect(base)
    out: list[tuple[str, str, str, Edit, bool]] = []

    def add(table: str, column: str, what: str, edit: Edit, keep_guards: bool = True) -> None:
        out.append((table, column, what, edit, keep_guards))

    for table in TABLES:
        columns = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
        rowids = [r[0] for r in con.execute(f"SELECT rowid FROM {table} ORDER BY rowid")]
        if not rowids:
            continue
        rid = rowids[len(rowids) // 2]
        if table == "materials":  # a live one: a tombstone has no chunks to speak of
            rid = con.execute("SELECT MAX(rowid) FROM materials WHERE deleted_at IS NULL").fetchone()[0]
        if table == "store_meta":
            for r in rowids:
                key, value = con.execute("SELECT key, value FROM store_meta WHERE rowid = ?", (r,)).fetchone()
                add(table, f"value of {key}", "one character changed",
                    lambda c, r=r, v=_flip(value): c.execute("UPDATE store_meta SET value = ? WHERE rowid = ?", (v, r)))
                add(table, f"row {key}", "deleted", lambda c, r=r: c.execute("DELETE FROM store_meta WHERE rowid = ?", (r,)))
            continue
        for column in columns:
            value = con.execute(f"SELECT {column} FROM {table} WHERE rowid = ?", (rid,)).fetchone()[0]
            add(table, column, "one byte changed", lambda c, t=table, col=column, v=_flip(value), r=rid:
                c.execute(f"UPDATE {t} SET {col} = ? WHERE rowid = ?", (v, r)))
        add(table, "*", "a row deleted", lambda c, t=table, r=rid: c.execute(f"DELETE FROM {t} WHERE rowid = ?", (r,)))
        add(table, "*", "the last row deleted", lambda c, t=table, r=rowids[-1]:
            c.execute(f"DELETE FROM {t} WHERE rowid = ?", (r,)))
        add(table, "*", "a rowid moved", lambda c, t=table, r=rid:
            c.execute(f"UPDATE {t} SET rowid = (SELECT MAX(rowid) + 100 FROM {t}) WHERE rowid = ?", (r,)))
        if len(rowids) > 1:
            def swap(c: sqlite3.Connection, t: str = table, a: int = rowids[0], b: int = rowids[1]) -> None:
                c.execute(f"UPDATE {t} SET rowid = -1 WHERE rowid = ?", (a,))
                c.execute(f"UPDATE {t} SET rowid = ? WHERE rowid = ?", (a, b))
                c.execute(f"UPDATE {t} SET rowid = ? WHERE rowid = -1", (b,))
            add(table, "*", "two rows reordered", swap)
    for table, column in (("state_records", "value"), ("events", "content"), ("summaries", "text"),
                          ("stubs", "outline"), ("actions", "intent"), ("candidates", "base_version"),
                          ("handoffs", "to_session"), ("tool_defs", "definition_hash"), ("sessions", "title"),
                          ("materials", "source_version"), ("deletion_requests", "targets")):
        rid = con.execute(f"SELECT MIN(rowid) FROM {table} WHERE {column} IS NOT NULL").fetchone()[0]
        value = con.execute(f"SELECT {column} FROM {table} WHERE rowid = ?", (rid,)).fetchone()[0]
        new = value + 1 if isinstance(value, int) else (
            value.replace("]", ',"x"]') if column == "targets" else value + " (edited)")

        def edit(c: sqlite3.Connection, t: str = table, col: str = column, r: int = rid, v: Any = new) -> None:
            c.execute(f"UPDATE {t} SET {col} = ? WHERE rowid = ?", (v, r))
            _redigest(c, t, r)

        def copy(c: sqlite3.Connection, t: str = table, r: int = rid) -> None:
            cols = [x[1] for x in c.execute(f"PRAGMA table_info({t})") if x[1] not in ("event_id", "material_id")]
            key = IDENTITY[t]
            picked = ", ".join(col if col != key else (f"{key} + 1000" if key in ("seq", "generation")
                                                      else f"{key} || '-x'") for col in cols)
            c.execute(f"INSERT INTO {t} ({', '.join(cols)}) SELECT {picked} FROM {t} WHERE rowid = ?", (r,))
            _redigest(c, t, c.execute("SELECT last_insert_rowid()").fetchone()[0])

        add(table, column, "edited, its row digest recomputed", edit)
        add(table, "*", "a row added (a copy, digest recomputed)", copy)
    seqs = [r[0] for r in con.execute("SELECT seq FROM ledger ORDER BY seq")]
    for label, seq in (("a middle", seqs[len(seqs) // 2]), ("the last", seqs[-1])):
        def rewrite(c: sqlite3.Connection, seq: int = seq) -> None:
            row = c.execute("SELECT seq, session, kind, actor, at, payload, source, record_digest, prev_hash FROM ledger "
                            "WHERE seq = ?", (seq,)).fetchone()
            payload = {**json.loads(row[5]), "context_version": 99}
            body = entry_body(row[0], row[1], row[2], row[3], row[4], payload, row[6], row[7])
            c.execute("UPDATE ledger SET payload = ?, hash = ? WHERE seq = ?",
                      (canonical_json(payload), ledger_hash(row[8], body), seq))
        add("ledger", "payload", f"{label} entry changed, its hash recomputed (no --head)", rewrite)

    def swap_chunks(c: sqlite3.Connection) -> None:
        a, b = c.execute("SELECT material_id, idx FROM material_chunks ORDER BY rowid LIMIT 2").fetchall()
        da = c.execute("SELECT data FROM material_chunks WHERE material_id = ? AND idx = ?", a).fetchone()[0]
        db = c.execute("SELECT data FROM material_chunks WHERE material_id = ? AND idx = ?", b).fetchone()[0]
        c.execute("UPDATE material_chunks SET data = ? WHERE material_id = ? AND idx = ?", (db, *a))
        c.execute("UPDATE material_chunks SET data = ? WHERE material_id = ? AND idx = ?", (da, *b))
    add("material_chunks", "data", "two chunks swapped", swap_chunks)
    add("sessions", "context_version", "a session's version changed",
        lambda c: c.execute("UPDATE sessions SET context_version = context_version + 1 WHERE rowid = 1"))
    add("sqlite_master", "trigger", "an append-only guard dropped (not put back)",
        lambda c: None, False)
    con.close()
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    base = Path(argv[0])
    results = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder) / "tampered.db"
        for table, column, what, edit, keep in edits(base):
            results.append({"table": table, "column": column, "edit": what, "verify": attempt(base, work, edit, keep)})
    if "--json" in argv:
        print(json.dumps(results, ensure_ascii=False, indent=1))
    else:
        for r in results:
            print(f"{r['verify'][:60]:<60} {r['table']}.{r['column']}: {r['edit']}")
    counts: dict[str, int] = {}
    for r in results:
        counts[r["verify"].split(" (")[0]] = counts.get(r["verify"].split(" (")[0], 0) + 1
    print(f"{len(results)} edits: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
