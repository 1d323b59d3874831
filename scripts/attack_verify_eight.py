"""Hostile review eight's verify attack: edits the earlier attack scripts and the mutation bench do
not make (docs/reviews/untrusted-eight.md).

    python scripts/attack_verify_eight.py STORE

STORE (the sample sessions imported, as bench/mutation_stores.py builds them) is left untouched:
each edit is made on a fresh copy whose head is remembered first, with plain sqlite3 (the
append-only guards dropped and put back) or by writing the file's bytes. Each line: the edit,
verify's exit status and codes (``--json``), or a traceback's last line.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.domain.canonical import canonical_json, ledger_hash  # noqa: E402
from scripts.attack_verify_six import edit as guarded_edit  # noqa: E402 - the guards dropped and put back
from scripts.attack_verify_six import fresh_copy, verify  # noqa: E402 - the same copy and `verify --json` run

LAST_EVENT = "(SELECT MAX(event_id) FROM events)"
A_USER = "(SELECT MIN(event_id) FROM events WHERE kind = 'user_message')"


def _index_page_bytes(index: str, old: bytes, new: bytes) -> Callable[[Path], None]:
    """Replace ``old`` by ``new`` (same length) on the pages of ``index`` alone: the table keeps its value."""
    def run(path: Path) -> None:
        with sqlite3.connect(path) as con:
            size = con.execute("PRAGMA page_size").fetchone()[0]
            pages = [p for (p,) in con.execute("SELECT pageno FROM dbstat WHERE name = ?", (index,))]
        data = bytearray(path.read_bytes())
        hits = 0
        for page in pages:
            start = (page - 1) * size
            chunk = bytes(data[start:start + size])
            if old in chunk:
                hits += chunk.count(old)
                data[start:start + size] = chunk.replace(old, new)
        if not hits:
            raise sqlite3.Error(f"{old!r} not on the pages of {index}")
        path.write_bytes(bytes(data))
    return run


def _reinsert(table: str, where: str) -> list[str]:
    """The row moved to the end of its table (a new rowid), its values unchanged."""
    return [f"CREATE TEMP TABLE moved AS SELECT * FROM {table} WHERE {where}", f"DELETE FROM {table} WHERE {where}",
            f"INSERT INTO {table} SELECT * FROM moved"]


def _rechained(kind: str, actor: str, reason: str) -> Callable[[sqlite3.Connection], None]:
    """The first entry of ``kind`` given another actor and reason, and every hash from it on
    recomputed as the inspector computes them (the rows it sealed untouched)."""
    def run(con: sqlite3.Connection) -> None:
        first = con.execute("SELECT MIN(seq) FROM ledger WHERE kind = ?", (kind,)).fetchone()[0]
        prev = con.execute("SELECT hash FROM ledger WHERE seq = ?", (first - 1,)).fetchone()
        prev_hash = prev[0] if prev else ""
        for seq, session, kind_, old_actor, at, payload, source, digest in con.execute(
                "SELECT seq, session, kind, actor, at, payload, source, record_digest FROM ledger WHERE seq >= ? "
                "ORDER BY seq", (first,)).fetchall():
            body = json.loads(payload)
            who = old_actor
            if seq == first:
                body["reason"], who = reason, actor
            text = canonical_json(body)
            new = ledger_hash(prev_hash, {"seq": seq, "session": session, "kind": kind_, "actor": who, "at": at,
                                          "payload": body, "source": source, "record_digest": digest})
            con.execute("UPDATE ledger SET actor = ?, payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                        (who, text, prev_hash, new, seq))
            prev_hash = new
    return run


EDITS: dict[str, list[str] | Callable[[Path], None] | Callable[[sqlite3.Connection], None]] = {
    "a rejection's actor and reason rewritten, chain recomputed (head remembered)": _rechained(
        "candidate.reject", "olga", "the owner approved it"),
    "no head: the same, on a copy this machine never verified": _rechained(
        "candidate.reject", "olga", "the owner approved it"),
    "PRAGMA user_version one lower": ["PRAGMA user_version = 6"],
    "PRAGMA user_version two lower": ["PRAGMA user_version = 5"],
    "PRAGMA user_version 99": ["PRAGMA user_version = 99"],
    "index only: ledger_kind's 'deletion' keys made 'deletioo'": _index_page_bytes(
        "ledger_kind", b"deletion", b"deletioo"),
    "index only: events_call's call ids changed": _index_page_bytes("events_call", b"toolu_", b"tooXu_"),
    "the last event removed (and its search entries)": [
        f"DELETE FROM events_fts WHERE rowid = {LAST_EVENT}", f"DELETE FROM events WHERE event_id = {LAST_EVENT}"],
    "the last deletion request removed": ["DELETE FROM deletion_requests WHERE rowid = "
                                          "(SELECT MAX(rowid) FROM deletion_requests)"],
    "two state records' row order swapped (first moved to the end)": _reinsert(
        "state_records", "rowid = (SELECT MIN(rowid) FROM state_records)"),
    "a deletion request moved to the end": _reinsert("deletion_requests", "rowid = (SELECT MIN(rowid) FROM "
                                                     "deletion_requests)"),
    "a session moved to the end": _reinsert("sessions", "rowid = (SELECT MIN(rowid) FROM sessions)"),
    "an event's call_id NULL made ''": [f"UPDATE events SET call_id = '' WHERE event_id = {A_USER}"],
    "an event's empty content made NULL": ["UPDATE events SET content = NULL WHERE content = '' AND event_id = "
                                           "(SELECT MIN(event_id) FROM events WHERE content = '')"],
    "store_meta created_at edited": ["UPDATE store_meta SET value = '2001-01-01T00:00:00Z' WHERE key = 'created_at'"],
    "events_fts: one event's entry deleted": [
        f"INSERT INTO events_fts(events_fts, rowid, content) SELECT 'delete', event_id, content FROM events "
        f"WHERE event_id = {A_USER}"],
    "events_fts_docsize: one row's size changed": [
        f"UPDATE events_fts_docsize SET sz = x'05' WHERE id = {A_USER}"],
    "an event's text with a NUL and a hidden tail": [
        f"UPDATE events SET content = content || char(0) || ' the owner approved prod writes' WHERE event_id = "
        f"{A_USER}"],
    "a ledger entry's actor with a trailing space": ["UPDATE ledger SET actor = actor || ' ' WHERE seq = "
                                                     "(SELECT MIN(seq) FROM ledger)"],
    "ANALYZE run (sqlite_stat1 written)": ["ANALYZE"],
    "a column added to events": ["ALTER TABLE events ADD COLUMN note TEXT"],
}


def edit(store: Path, how: list[str] | Callable[..., None], name: str) -> None:
    if callable(how) and not name.startswith(("a rejection", "no head")):
        how(store)
        return
    guarded_edit(store, how)


def main(source: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="attack-eight-") as folder:
        for number, (name, how) in enumerate(EDITS.items()):
            os.environ["INSPECTOR_DATA_DIR"] = f"{folder}/data-{number}"  # each copy's remembered head alone
            copy = fresh_copy(source, folder)
            try:
                edit(copy, how, name)
                if name.startswith("no head"):
                    os.environ["INSPECTOR_DATA_DIR"] = f"{folder}/data-{number}-fresh"  # nothing remembered
            except sqlite3.Error as exc:
                print(f"{name:60} refused by SQLite: {exc}")
                continue
            code, said = verify(copy)
            print(f"{name:60} exit {code}  {said}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
