"""Every kind of edit made to a store behind the product's back, generated from its schema.

The tables and columns are read from ``sqlite_master`` and ``PRAGMA table_info`` of the store
being edited, never listed by hand, so a column a later format adds is edited too (and a test
fails until verify has a verdict for it). Per column: one character or byte changed, set to
NULL, swapped with another row's value, a BLOB cut in half, and (record tables) changed with
the row's own digest recomputed. Per table: a row deleted, a forged row inserted (its digest
recomputed), a row duplicated, a row moved to another rowid. Consistent edits, as an attacker
who knows the format makes them: a record edited with its seal recomputed in the sealing
entry and every later ledger hash recomputed, a ledger entry rewritten with the chain after
it, the last entry cut, an entry appended. Edits of the files: the tail cut, a page zeroed,
edits left in the WAL, the WAL or ``-shm`` damaged or removed, and the store replaced by an
older copy of itself.

Each :class:`Mutation` edits a copy; :func:`apply` makes it with sqlite3 the way a careful
editor would (the append-only guard triggers dropped and put back in the same transaction).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.domain.canonical import canonical_json, keyed_digest, ledger_hash
from inspector.domain.sif import identity_digest
from inspector.domain.sif_schema import IDENTITY_FIELDS
from inspector.store import grams
from inspector.store.ledger import entry_body
from inspector.store.tables import SPECS

TABLE_TYPE = {spec.table: type_ for type_, spec in SPECS.items()}


@dataclass(frozen=True)
class Mutation:
    table: str
    column: str  # a column, "*" (a whole row), or a file part
    kind: str  # byte, null, swap, truncate, redigest, delete, forge, duplicate, reorder, reseal, ...
    apply: Callable[[Any], Any]  # sqlite3.Connection -> None, or Path -> None for mode "file"
    mode: str = "sql"  # sql (committed into the file), wal (left in the WAL), file (bytes of the files)
    pinned: bool = True  # the head of the untouched store is remembered, as a verify before the edit leaves it
    rows: tuple[Any, ...] = ()  # the rowids edited (for the report)

    @property
    def name(self) -> str:
        unpinned = "" if self.pinned else " (never verified here)"
        return f"{self.table}.{self.column}: {self.kind}{unpinned}"


def tables(con: sqlite3.Connection) -> list[str]:
    """Every real table (FTS5 shadow tables included; the virtual tables are edited through them)."""
    rows = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
    return [n for n, sql in rows if not str(sql or "").upper().startswith("CREATE VIRTUAL")]


def columns(con: sqlite3.Connection, table: str) -> list[tuple[str, bool, bool]]:
    """(name, not null, part of the primary key) per column."""
    return [(str(r[1]), bool(r[3]), bool(r[5])) for r in con.execute(f"PRAGMA table_info('{table}')")]


def flip(value: Any) -> Any:
    """The value with one unit changed: an integer +1, a real +0.5, the middle byte or character."""
    if value is None:
        return "x"
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, bytes):
        data = bytearray(value or b"\0")
        data[len(data) // 2] ^= 0x01
        return bytes(data)
    text = str(value) or "x"
    i = len(text) // 2
    return text[:i] + chr(ord(text[i]) ^ 1 or 0x41) + text[i + 1:]


def repeated_key(value: Any) -> str | None:
    """A JSON object's text with its first key written again in front of it, another value: Python's
    parser keeps a repeated key's last value (the digest and the hash hold), SQLite's JSON functions
    read its first (what ``json_extract`` shows: the timeline, the budget, ``actions``, ``history``)."""
    if not isinstance(value, str) or not value.startswith("{"):
        return None
    try:
        parsed = json.loads(value)
    except ValueError:
        return None
    if not isinstance(parsed, dict) or not parsed:
        return None
    return "{" + json.dumps(next(iter(parsed))) + ':"edited",' + value[1:]


def meaningful(value: Any, column: str) -> Any:
    """A change a person would make (still valid JSON in a JSON column), for consistent edits."""
    if isinstance(value, int):
        return value + 1
    if isinstance(value, bytes):
        return flip(value)
    if value is None:
        return "edited"
    try:
        parsed = json.loads(value)
    except ValueError:
        return str(value) + " (edited)"
    if isinstance(parsed, list):
        return canonical_json([*parsed, "evt:1"])
    if isinstance(parsed, dict):
        return canonical_json({**parsed, "edited": True})
    return str(value) + " (edited)"


def has_rowid(con: sqlite3.Connection, table: str) -> bool:
    try:
        con.execute(f"SELECT rowid FROM '{table}' LIMIT 0")
    except sqlite3.OperationalError:
        return False  # WITHOUT ROWID (some FTS5 shadow tables)
    return True


def key_of(con: sqlite3.Connection, table: str) -> str:
    """How a row is named: its rowid, or the primary key of a WITHOUT ROWID table (a row value)."""
    if has_rowid(con, table):
        return "rowid"
    pk = sorted((r[5], r[1]) for r in con.execute(f"PRAGMA table_info('{table}')") if r[5])
    return "(" + ", ".join(n for _, n in pk) + ")" if len(pk) > 1 else pk[0][1]


def _rowids(con: sqlite3.Connection, table: str, where: str = "1") -> list[Any]:
    key = key_of(con, table)
    rows = con.execute(f"SELECT {key.strip('()')} FROM '{table}' WHERE {where} ORDER BY {key.strip('()')}")
    return [r[0] if len(r) == 1 else tuple(r) for r in rows]


def _is(con: sqlite3.Connection, table: str, row: Any) -> tuple[str, tuple[Any, ...]]:
    """A WHERE clause naming one row, and its parameters."""
    key = key_of(con, table)
    values = row if isinstance(row, tuple) else (row,)
    return (f"{key} = ({', '.join('?' for _ in values)})" if len(values) > 1 else f"{key} = ?"), values


def _middle(con: sqlite3.Connection, table: str, column: str | None = None) -> int | None:
    where = f"{column} IS NOT NULL" if column else "1"
    if table == "materials":  # a live material: a tombstone has no bytes to speak of
        where += " AND deleted_at IS NULL"
    ids = _rowids(con, table, where)
    return ids[len(ids) // 2] if ids else None


def redigest(con: sqlite3.Connection, table: str, rowid: int) -> None:
    """Recompute a record row's own digest from its columns (what a naive check compares)."""
    type_ = TABLE_TYPE[table]
    spec = SPECS[type_]
    row = con.execute(f"SELECT {spec.select_columns} FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
    try:
        digest = identity_digest(type_, spec.to_record(row))
    except (ValueError, TypeError):
        return  # a JSON column that no longer parses: nothing to recompute from
    con.execute(f"UPDATE {table} SET digest = ? WHERE rowid = ?", (digest, rowid))


def seal(con: sqlite3.Connection, key: bytes, session: str, type_: str) -> str:
    """inspector/store/seals.py's whole seal, on a plain sqlite3 connection (as an editor would)."""
    spec = SPECS[type_]
    column = "id" if type_ == "session" else "session"
    order = {"event": "event_id", "material": "material_id"}.get(type_, "rowid")
    rows = con.execute(f"SELECT digest FROM {spec.table} WHERE {column} = ? ORDER BY {order}", (session,)).fetchall()
    digest = hashlib.sha256("".join(f"{r[0]}\n" for r in rows).encode("utf-8", "surrogatepass")).hexdigest()
    return keyed_digest(key, f"{type_}:{len(rows)}:{digest}".encode("ascii"))


def rechain(con: sqlite3.Connection, start: int, change: Callable[[int, dict[str, Any]], dict[str, Any]]) -> None:
    """Rewrite ledger entries from ``start`` on with ``change(seq, payload)``, every hash recomputed."""
    prev = con.execute("SELECT hash FROM ledger WHERE seq = ?", (start - 1,)).fetchone()
    prev_hash = prev[0] if prev else "0" * 64
    for row in con.execute("SELECT seq, session, kind, actor, at, payload, source, record_digest FROM ledger "
                           "WHERE seq >= ? ORDER BY seq", (start,)).fetchall():
        payload = change(row[0], json.loads(row[5]))
        new_hash = ledger_hash(prev_hash, entry_body(row[0], row[1], row[2], row[3], row[4], payload, row[6], row[7]))
        con.execute("UPDATE ledger SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                    (canonical_json(payload), prev_hash, new_hash, row[0]))
        prev_hash = new_hash


def reseal(con: sqlite3.Connection, table: str, rowid: int) -> None:
    """After a record edit: its type's seal recomputed (whole) in the last entry that sealed it
    for its session, and every hash from that entry on recomputed — the chain holds again."""
    type_ = TABLE_TYPE[table]
    key = bytes.fromhex(con.execute("SELECT value FROM store_meta WHERE key = 'digest_key'").fetchone()[0])
    column = "id" if type_ == "session" else "session"
    sid = con.execute(f"SELECT {column} FROM {table} WHERE rowid = ?", (rowid,)).fetchone()[0]
    seq = con.execute("SELECT MAX(seq) FROM ledger WHERE session = ? AND source = 'inspector' AND "
                      f"json_extract(payload, '$.seals.{type_}') IS NOT NULL", (sid,)).fetchone()[0]
    if seq is None:
        return
    value = seal(con, key, sid, type_)
    rechain(con, seq, lambda s, p: {**p, "seals": {**p["seals"], type_: value}} if s == seq else p)


def _identity_changed(con: sqlite3.Connection, table: str, row_key: Any) -> tuple[list[str], list[Any]]:
    """A copy of a row under a new identity (its key's last part changed), for a forged row."""
    names = [c for c, _, _ in columns(con, table)]
    where, params = _is(con, table, row_key)
    row = list(con.execute(f"SELECT {', '.join(names)} FROM '{table}' WHERE {where}", params).fetchone())
    type_ = TABLE_TYPE.get(table)
    keys = list(IDENTITY_FIELDS[type_][-1:]) if type_ else [c for c, _, pk in columns(con, table) if pk][-1:]
    if table in ("events", "materials"):
        keys.append("event_id" if table == "events" else "material_id")
    for k in keys or names[:1]:
        i = names.index(k)
        value = row[i]
        row[i] = (con.execute(f"SELECT IFNULL(MAX({k}), 0) + 1000 FROM '{table}'").fetchone()[0]
                  if isinstance(value, int) or value is None else f"{value}-forged")
    return names, row


def row_edits(con: sqlite3.Connection, table: str) -> list[Mutation]:
    out: list[Mutation] = []
    rid = _middle(con, table)
    if rid is None:
        return out
    ids = _rowids(con, table)
    names = [c for c, _, _ in columns(con, table)]
    where, params = _is(con, table, rid)
    out.append(Mutation(table, "*", "delete", lambda c: c.execute(f"DELETE FROM '{table}' WHERE {where}", params),
                        rows=(rid,)))
    if ids[-1] != rid:
        last_where, last_params = _is(con, table, ids[-1])
        out.append(Mutation(table, "*", "delete the last", lambda c: c.execute(
            f"DELETE FROM '{table}' WHERE {last_where}", last_params), rows=(ids[-1],)))

    def forge(c: sqlite3.Connection) -> None:
        cols, row = _identity_changed(c, table, rid)
        c.execute(f"INSERT INTO '{table}' ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})", row)
        if table in TABLE_TYPE:
            redigest(c, table, int(c.execute("SELECT last_insert_rowid()").fetchone()[0]))
    out.append(Mutation(table, "*", "forge", forge, rows=(rid,)))
    plain = [n for n in names if n not in ("event_id", "material_id")]
    out.append(Mutation(table, "*", "duplicate", lambda c: c.execute(
        f"INSERT INTO '{table}' ({', '.join(plain)}) SELECT {', '.join(plain)} FROM '{table}' WHERE {where}",
        params), rows=(rid,)))
    if not has_rowid(con, table):
        return out
    key = {"events": "event_id", "materials": "material_id", "ledger": "seq"}.get(table, "rowid")
    out.append(Mutation(table, key, "reorder (rowid moved past the last)", lambda c: c.execute(
        f"UPDATE '{table}' SET rowid = (SELECT MAX(rowid) + 100 FROM '{table}') WHERE rowid = ?", (rid,)),
        rows=(rid,)))
    if len(ids) > 1:
        a, b = ids[0], ids[1]

        def swap_rows(c: sqlite3.Connection) -> None:
            c.execute(f"UPDATE '{table}' SET rowid = -7 WHERE rowid = ?", (a,))
            c.execute(f"UPDATE '{table}' SET rowid = ? WHERE rowid = ?", (a, b))
            c.execute(f"UPDATE '{table}' SET rowid = ? WHERE rowid = -7", (b,))
        out.append(Mutation(table, key, "reorder (two rows swapped)", swap_rows, rows=(a, b)))
    return out


def column_edits(con: sqlite3.Connection, table: str) -> list[Mutation]:
    out: list[Mutation] = []
    key = key_of(con, table)
    targets = [(column, _middle(con, table, column), column) for column, _, _ in columns(con, table)]
    if table == "store_meta":  # each key its own row: the edit is named by the key it hits
        targets = [(column, r, f"{column}:{k}") for r, k in con.execute("SELECT rowid, key FROM store_meta")
                   for column in ("key", "value")]
    if table == "materials":  # deleted_at is NULL on every live material: edit a tombstone's too
        tomb = con.execute("SELECT rowid FROM materials WHERE deleted_at IS NOT NULL LIMIT 1").fetchone()
        if tomb is not None:
            targets.append(("deleted_at", tomb[0], "deleted_at"))
        targets = [(c, _middle(con, table) if c == "deleted_at" and r is None else r, lab) for c, r, lab in targets]
    for column, rid, label in targets:
        if rid is None:
            continue
        where, params = _is(con, table, rid)
        value = con.execute(f"SELECT {column} FROM '{table}' WHERE {where}", params).fetchone()[0]

        def set_to(new: Any, col: str = column, w: str = where, p: tuple[Any, ...] = params
                   ) -> Callable[[sqlite3.Connection], None]:
            return lambda c: c.execute(f"UPDATE '{table}' SET {col} = ? WHERE {w}", (new, *p))
        out.append(Mutation(table, label, "byte", set_to(flip(value)), rows=(rid,)))
        if isinstance(value, int):  # +1 often collides with a key's next value: a free one too
            out.append(Mutation(table, label, "far", set_to(value + 1_000_003), rows=(rid,)))
        out.append(Mutation(table, label, "null", set_to(None), rows=(rid,)))
        if isinstance(value, bytes) and len(value) > 1:
            out.append(Mutation(table, label, "truncate", set_to(value[: len(value) // 2]), rows=(rid,)))
        if isinstance(value, str) and table != "store_meta":  # a JSON object of this column: a key repeated
            found = con.execute(f"SELECT {key.strip('()')}, {column} FROM '{table}' WHERE {column} LIKE '{{\"%' "
                                f"ORDER BY {key.strip('()')} LIMIT 1").fetchone()
            repeated = repeated_key(found[-1]) if found is not None else None
            if repeated is not None:
                r_where, r_params = _is(con, table, found[0] if len(found) == 2 else tuple(found[:-1]))
                out.append(Mutation(table, label, "repeat a key", set_to(repeated, w=r_where, p=r_params),
                                    rows=(found[0],)))
        other = con.execute(f"SELECT {key.strip('()')}, {column} FROM '{table}' WHERE {column} IS NOT ? "
                            f"AND NOT ({where}) ORDER BY {key.strip('()')} LIMIT 1", (value, *params)).fetchone()
        if other is not None:
            o_where, o_params = _is(con, table, other[0] if len(other) == 2 else tuple(other[:-1]))

            def swap(c: sqlite3.Connection, col: str = column, w: str = where, p: tuple[Any, ...] = params,
                     v: Any = value, ow: str = o_where, op: tuple[Any, ...] = o_params, ov: Any = other[-1]) -> None:
                c.execute(f"UPDATE '{table}' SET {col} = ? WHERE {w}", (ov, *p))
                c.execute(f"UPDATE '{table}' SET {col} = ? WHERE {ow}", (v, *op))
            out.append(Mutation(table, label, "swap", swap, rows=(rid, other[0])))
        if table in TABLE_TYPE and column != "digest":
            def consistent(c: sqlite3.Connection, col: str = column, r: Any = rid, v: Any = value) -> None:
                c.execute(f"UPDATE '{table}' SET {col} = ? WHERE rowid = ?", (meaningful(v, col), r))
                redigest(c, table, r)
            out.append(Mutation(table, label, "redigest", consistent, rows=(rid,)))
    return out


def consistent_edits(con: sqlite3.Connection) -> list[Mutation]:
    """Edits that recompute what the store itself can recompute: seals and the chain after them."""
    out: list[Mutation] = []
    for table, column in (("state_records", "value"), ("events", "content"), ("summaries", "text"),
                          ("materials", "source_version"), ("sessions", "title"), ("actions", "status"),
                          ("candidates", "status")):
        rid = _middle(con, table, column)
        if rid is None:
            continue
        value = con.execute(f"SELECT {column} FROM {table} WHERE rowid = ?", (rid,)).fetchone()[0]

        def resealed(c: sqlite3.Connection, t: str = table, col: str = column, r: int = rid, v: Any = value) -> None:
            c.execute(f"UPDATE {t} SET {col} = ? WHERE rowid = ?", (meaningful(v, col), r))
            redigest(c, t, r)
            reseal(c, t, r)
        for pinned in (True, False):
            out.append(Mutation(table, column, "reseal and rechain", resealed, pinned=pinned, rows=(rid,)))
    seqs = [int(r[0]) for r in con.execute("SELECT seq FROM ledger ORDER BY seq")]
    middle = seqs[len(seqs) // 2]

    def rewritten(c: sqlite3.Connection, seq: int = middle) -> None:
        rechain(c, seq, lambda s, p: {**p, "reason": "rewritten"} if s == seq else p)
    for pinned in (True, False):
        out.append(Mutation("ledger", "payload", "rewrite an entry and rechain", rewritten, pinned=pinned,
                            rows=(middle,)))
        out.append(Mutation("ledger", "*", "cut the last entry", lambda c: c.execute(
            "DELETE FROM ledger WHERE seq = (SELECT MAX(seq) FROM ledger)"), pinned=pinned, rows=(seqs[-1],)))
        out.append(Mutation("ledger", "payload", "rewrite the last entry and its hash", lambda c: rechain(
            c, seqs[-1], lambda s, p: {**p, "reason": "rewritten"}), pinned=pinned, rows=(seqs[-1],)))
    out.append(Mutation("ledger", "*", "append an entry (a pending record confirmed by hand)", _append_confirmation))
    return out


def _append_confirmation(c: sqlite3.Connection) -> None:
    """The attack no file check can see: an act appended with the chain extended correctly."""
    row = c.execute("SELECT rowid, session, key, version FROM state_records WHERE status = 'pending' "
                    "ORDER BY rowid LIMIT 1").fetchone()
    if row is None:
        return
    rid, sid, key, version = row
    owner = c.execute("SELECT owner FROM sessions WHERE id = ?", (sid,)).fetchone()[0] or "owner"
    last = c.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()
    cv, gr = c.execute("SELECT context_version, goal_revision FROM sessions WHERE id = ?", (sid,)).fetchone()
    payload = {"key": key, "version": version, "decision": "confirmed", "reason": "ok", "context_version": cv + 1,
               "goal_revision": gr, "status_set": [{"type": "state", "identity": [sid, key, version],
                                                    "status": "active"}]}
    at = "2030-01-01T00:00:00Z"
    body = entry_body(last[0] + 1, sid, "confirmation", owner, at, payload, "inspector", None)
    c.execute("INSERT INTO ledger (seq, session, kind, actor, at, payload, source, record_digest, prev_hash, hash) "
              "VALUES (?, ?, 'confirmation', ?, ?, ?, 'inspector', NULL, ?, ?)",
              (last[0] + 1, sid, owner, at, canonical_json(payload), last[1], ledger_hash(last[1], body)))
    c.execute("UPDATE state_records SET status = 'active' WHERE rowid = ?", (rid,))
    c.execute("UPDATE sessions SET context_version = ? WHERE id = ?", (cv + 1, sid))


# ``brief``: the kinds kept for the FTS5 tables of the search indexes (derived, rebuilt and
# compared as a whole by verify): a test's run stays short; the bench makes every kind.
BRIEF_DERIVED_KINDS = ("byte", "far", "delete", "forge", "reorder (two rows swapped)")


def all_mutations(path: Path, *, brief: bool = False) -> list[Mutation]:
    from bench import mutation_files  # it builds Mutations of this module

    con = sqlite3.connect(path)
    try:
        out: list[Mutation] = []
        for table in tables(con):
            edits = column_edits(con, table) + row_edits(con, table)
            if brief and table.endswith(("_data", "_idx", "_docsize", "_config", "_content")):
                edits = [m for m in edits if m.kind in BRIEF_DERIVED_KINDS]
            out += edits
        out += consistent_edits(con)
        out += mutation_files.file_edits(con, path)
        return out
    finally:
        con.close()


def apply(con: sqlite3.Connection, mutation: Mutation) -> bool:
    """Make an SQL edit as a careful editor would: guards dropped and put back in one transaction.
    False when it changed nothing (e.g. a forged confirmation with no pending record)."""
    grams.register(con)
    con.execute("BEGIN")
    guards = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    before = con.total_changes
    for name, _ in guards:
        con.execute(f"DROP TRIGGER {name}")
    mutation.apply(con)
    changed = con.total_changes != before
    for _, sql in guards:
        con.execute(sql)
    con.execute("COMMIT")
    return changed
