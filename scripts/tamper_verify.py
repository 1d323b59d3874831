"""Edit every table and column of a store with sqlite3 (bypassing the inspector) and say,
for each edit, whether ``verify`` reports it.

    python scripts/tamper_verify.py STORE [--json] [--new-only] [--unpinned]

STORE is left untouched: each edit is made on a fresh copy, with the append-only guard
triggers dropped and put back (as a careful editor would). By default the copy's head is
remembered first, as a verify on this machine before the edit leaves it
(inspector/services/verify_pins.py); ``--unpinned`` runs as if it had never been verified. Edits: one byte (or one unit)
changed in every column of a middle row of every table, that row deleted, the last row
deleted, a rowid moved, two rows reordered; each record type edited and added with its row
digest recomputed; a ledger entry rewritten with its hash recomputed (middle and last);
two chunks swapped; a session's version changed; a guard dropped. Then (``new_edits``, "new"
in the JSON): the search indexes' text, every guard altered or dropped, a trigger and a view
added, every index dropped or altered, edits left only in the WAL, each table's first row
deleted and put back identical under another rowid, a record edited with its seal and every
later hash recomputed (with and without ``--head``), the last entry cut, and the file's tail
cut. Each result is
``reported``, ``missed``, ``refused by SQLite`` (a UNIQUE constraint: the edit cannot be
made), ``not a store`` (exit 3) or ``traceback``. docs/store-format.md lists why each edit
that stays unreported is harmless. Build a store with every kind of act first, e.g. the
sample sessions plus an accept, a correction, a rejection, a handoff, a rebuild, a deletion
and a search.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.mutation_edits import rechain, seal  # noqa: E402  (the same whole seal and chain rewrite)
from inspector.domain.canonical import (  # noqa: E402
    canonical_json,
    ledger_hash,
)
from inspector.domain.errors import InspectorError  # noqa: E402
from inspector.domain.sif import identity_digest  # noqa: E402
from inspector.services import verify_pins  # noqa: E402
from inspector.services.verify_layout import expected_schema  # noqa: E402
from inspector.services.verifying import damaged_report, verify_store  # noqa: E402
from inspector.store import grams  # noqa: E402
from inspector.store.connection import open_store  # noqa: E402
from inspector.store.ledger import entry_body  # noqa: E402
from inspector.store.tables import SPECS  # noqa: E402

Edit = Callable[[Any], Any]
TABLES = ("sessions", "events", "tool_defs", "materials", "material_chunks", "stubs", "state_records", "actions",
          "summaries", "candidates", "handoffs", "deletion_requests", "ledger", "store_meta", "search_watermark")
IDENTITY = {"state_records": "key", "events": "seq", "summaries": "generation", "stubs": "id", "actions": "id",
            "candidates": "id", "handoffs": "id", "tool_defs": "name", "sessions": "id", "materials": "id",
            "deletion_requests": "id"}


PIN: dict[str, Any] = {}  # the base store's key and head, remembered as a verify before the edit would


def _verify(path: Path, head: tuple[int, str] | None = None) -> str:
    with tempfile.TemporaryDirectory() as data:
        os.environ["INSPECTOR_DATA_DIR"] = data
        if PIN:
            verify_pins.remember(str(path.resolve()), PIN["key"], PIN["seq"], PIN["hash"])
        return _verify_now(path, head)


def _verify_now(path: Path, head: tuple[int, str] | None = None) -> str:
    async def run() -> str:
        try:
            async with await open_store(path) as store:
                return "reported" if not (await verify_store(store, head=head)).ok else "missed"
        except InspectorError as exc:  # as the verify command does: a store it cannot open any more is a break
            return "reported (damaged_store)" if damaged_report(path, exc) is not None else f"not a store ({exc.code})"
        except Exception as exc:  # noqa: BLE001 - what this script looks for
            return f"traceback ({type(exc).__name__}: {exc})"
    return asyncio.run(run())


def _clear(work: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{work}{suffix}").unlink(missing_ok=True)


def attempt(base: Path, work: Path, edit: Edit, keep_guards: bool = True, mode: str = "file") -> str:
    """``mode``: ``file`` (the edit checkpointed into the file), ``wal`` (the edit left only in the
    WAL: the files are copied while the editing connection still holds it), ``head:SEQ:HASH``
    (verify with the head pinned before the edit), ``bytes`` (``edit`` takes the file's path)."""
    _clear(work)
    shutil.copy(base, work)
    if mode == "bytes":
        edit(work)  # type: ignore[arg-type]
        return _verify(work)
    con = sqlite3.connect(work)
    con.isolation_level = None
    grams.register(con)
    if mode == "wal":
        con.execute("PRAGMA journal_mode = WAL")
        con.execute("PRAGMA wal_autocheckpoint = 0")
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
        con.close()
        return f"refused by SQLite ({exc})"
    if mode == "wal":  # the store as another process sees it while the edit sits in the WAL
        copy = work.with_name("wal-only.db")
        _clear(copy)
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{work}{suffix}").exists():
                shutil.copy(f"{work}{suffix}", f"{copy}{suffix}")
        con.close()
        return _verify(copy)
    con.close()
    if mode.startswith("head:"):
        _, seq, digest = mode.split(":")
        return _verify(work, (int(seq), digest))
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


def new_edits(base: Path) -> list[tuple[str, str, str, Edit, bool, str]]:
    """The kinds of edit added after the first 210 (docs/store-format.md): the search indexes'
    text, the schema, WAL-only edits, rows deleted and put back, rows resealed with the chain
    rewritten, and the file's tail cut."""
    con = sqlite3.connect(base)
    out: list[tuple[str, str, str, Edit, bool, str]] = []

    def add(table: str, column: str, what: str, edit: Edit, keep: bool = True, mode: str = "file") -> None:
        out.append((table, column, what, edit, keep, mode))

    event_id, content = con.execute("SELECT event_id, content FROM events WHERE length(content) > 20 "
                                    "ORDER BY event_id LIMIT 1").fetchone()

    def fts_rebuilt(c: sqlite3.Connection, text: str) -> None:
        c.execute("INSERT INTO events_fts (events_fts, rowid, content) VALUES ('delete', ?, ?)", (event_id, content))
        c.execute("INSERT INTO events_fts (rowid, content) VALUES (?, ?)", (event_id, text))
    add("events_fts", "*", "an entry rebuilt from injected text of the same length",
        lambda c: fts_rebuilt(c, ("wire the money now " + content)[:len(content)]))
    add("events_fts", "*", "an entry rebuilt from other text (the event hidden from its own words)",
        lambda c: fts_rebuilt(c, "nothing here"))

    def grams_swapped(c: sqlite3.Connection) -> None:
        (a, ca), (_b, cb) = c.execute("SELECT event_id, content FROM events WHERE length(content) > 20 "
                                      "ORDER BY event_id LIMIT 2").fetchall()
        c.execute("INSERT INTO events_grams (events_grams, rowid, grams) VALUES ('delete', ?, ci_grams(?))", (a, ca))
        c.execute("INSERT INTO events_grams (rowid, grams) VALUES (?, ci_grams(?))", (a, cb))
    add("events_grams", "*", "an entry given another event's grams", grams_swapped)
    add("materials_fts", "text", "an entry's text rewritten (the material search shows it)",
        lambda c: c.execute("UPDATE materials_fts SET text = 'call 138-0013-8000 ' || text WHERE rowid = "
                            "(SELECT MIN(rowid) FROM materials_fts)"))
    add("materials_fts_content", "c0", "the index's stored text edited under the index",
        lambda c: c.execute("UPDATE materials_fts_content SET c0 = 'nothing' WHERE id = "
                            "(SELECT MIN(id) FROM materials_fts_content)"))
    # the schema
    triggers = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, sql in triggers:
        head = re.split(r"\s+BEGIN\b", sql, maxsplit=1)[0]
        others = [other for n, other in triggers if n != name]
        add("sqlite_master", f"trigger {name}", "a guard altered into a no-op (the other guards put back)",
            lambda c, n=name, h=head, rest=others: (c.execute(f"DROP TRIGGER IF EXISTS {n}"),
                                                    c.execute(f"{h} BEGIN SELECT 1; END"),
                                                    [c.execute(x) for x in rest]), False)
        add("sqlite_master", f"trigger {name}", "a guard dropped (not put back)",
            lambda c, n=name: c.execute(f"DROP TRIGGER IF EXISTS {n}"), False)
    add("sqlite_master", "trigger", "a trigger added that activates every new state record",
        lambda c: c.execute("CREATE TRIGGER later AFTER INSERT ON state_records BEGIN UPDATE state_records SET "
                            "status = 'active' WHERE rowid = new.rowid; END"))
    add("sqlite_master", "view", "a view added", lambda c: c.execute("CREATE VIEW v AS SELECT * FROM events"))
    for (type_, name), sql in expected_schema().items():
        if type_ == "index" and sql:
            add("sqlite_master", f"index {name}", "an index dropped", lambda c, n=name: c.execute(f"DROP INDEX {n}"))
    add("sqlite_master", "index stubs_id", "an index altered (made UNIQUE on other columns)",
        lambda c: (c.execute("DROP INDEX stubs_id"), c.execute("CREATE INDEX stubs_id ON stubs(session)")))
    # WAL-only edits
    add("state_records", "value", "edited, digest recomputed, left only in the WAL", _reworded_state, True, "wal")
    add("ledger", "payload", "one byte changed, left only in the WAL",
        lambda c: c.execute("UPDATE ledger SET payload = replace(payload, '\"', ' \"') WHERE seq = 2"), True, "wal")
    add("events", "content", "edited, digest recomputed, left only in the WAL", _edited_event, True, "wal")
    # a row deleted and put back identical under another rowid
    for table in ("sessions", "events", "tool_defs", "materials", "stubs", "state_records", "actions", "summaries",
                  "candidates", "handoffs", "deletion_requests"):
        key = {"events": "event_id", "materials": "material_id"}.get(table, "rowid")
        first = con.execute(f"SELECT MIN({key}) FROM {table}").fetchone()[0]
        if first is None:
            continue

        def reinsert(c: sqlite3.Connection, t: str = table, k: str = key, r: int = first) -> None:
            cols = [x[1] for x in c.execute(f"PRAGMA table_info({t})") if x[1] != k]
            names = ", ".join(cols)
            top = c.execute(f"SELECT MAX({k}) + 1 FROM {t}").fetchone()[0]
            c.execute("DROP TABLE IF EXISTS temp.moved")
            c.execute(f"CREATE TEMP TABLE moved AS SELECT {names} FROM {t} WHERE {k} = ?", (r,))
            c.execute(f"DELETE FROM {t} WHERE {k} = ?", (r,))
            c.execute(f"INSERT INTO {t} ({k}, {names}) SELECT ?, {names} FROM temp.moved", (top,))
        add(table, "*", "the first row deleted and put back identical under another rowid", reinsert)
    # rows edited with their seal recomputed in the sealing entry and the chain rewritten after it
    key = bytes.fromhex(con.execute("SELECT value FROM store_meta WHERE key = 'digest_key'").fetchone()[0])
    last = con.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()

    def resealed(c: sqlite3.Connection) -> None:
        _reworded_state(c)
        sid = c.execute("SELECT session FROM state_records ORDER BY rowid LIMIT 1").fetchone()[0]
        seq = c.execute("SELECT MAX(seq) FROM ledger WHERE session = ? AND payload LIKE '%\"seals\"%' AND "
                        "json_extract(payload, '$.seals.state') IS NOT NULL", (sid,)).fetchone()[0]
        sealed = seal(c, key, sid, "state")
        rechain(c, seq, lambda s, p: {**p, "seals": {**p["seals"], "state": sealed}} if s == seq else p)
    add("state_records", "value", "edited with its seal recomputed and the chain rewritten (no --head)", resealed)
    add("state_records", "value", "edited with its seal recomputed and the chain rewritten (--head pinned before)",
        resealed, True, f"head:{last[0]}:{last[1]}")
    add("ledger", "*", "the last entry removed (--head pinned before)",
        lambda c: c.execute("DELETE FROM ledger WHERE seq = (SELECT MAX(seq) FROM ledger)"), True,
        f"head:{last[0]}:{last[1]}")
    # the file's tail cut
    page = con.execute("PRAGMA page_size").fetchone()[0]
    size = base.stat().st_size
    for label, keep_bytes in (("the last page cut off", size - page), ("the second half cut off", size // 2),
                              ("the last 100 bytes cut off", size - 100)):
        add("file", "tail", label, lambda path, n=keep_bytes: os.truncate(path, n), True, "bytes")
    con.close()
    return out


def _reworded_state(c: sqlite3.Connection) -> None:
    rid = c.execute("SELECT MIN(rowid) FROM state_records").fetchone()[0]
    c.execute("UPDATE state_records SET value = value || ' (edited)' WHERE rowid = ?", (rid,))
    _redigest(c, "state_records", rid)


def _edited_event(c: sqlite3.Connection) -> None:
    rid = c.execute("SELECT MIN(rowid) FROM events WHERE content IS NOT NULL").fetchone()[0]
    c.execute("UPDATE events SET content = content || ' (edited)' WHERE rowid = ?", (rid,))
    _redigest(c, "events", rid)


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    base = Path(argv[0])
    if "--unpinned" not in argv:  # as after a verify on this machine before the edit (verify_pins.py)
        con = sqlite3.connect(base)
        key = bytes.fromhex(con.execute("SELECT value FROM store_meta WHERE key = 'digest_key'").fetchone()[0])
        seq, digest = con.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()
        con.close()
        PIN.update(key=key, seq=seq, hash=digest)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder) / "tampered.db"
        first = [(*e, "file") for e in edits(base)] if "--new-only" not in argv else []
        for n, (table, column, what, edit, keep, mode) in enumerate([*first, *new_edits(base)]):
            results.append({"table": table, "column": column, "edit": what, "kind": "new" if n >= len(first) else "first",
                            "verify": attempt(base, work, edit, keep, mode)})
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
