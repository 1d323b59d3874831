"""Hostile review seven's verify attack: the edits scripts/attack_verify_six.py,
scripts/tamper_verify.py and bench/verify_mutations.py do not make (docs/reviews/untrusted-seven.md).

    python scripts/attack_verify_seven.py STORE

STORE (the sample sessions imported, as bench/mutation_stores.py builds them) is left untouched:
each edit is made on a fresh copy whose head is remembered first (a verify before the edit, as on
a reviewer's machine), with plain sqlite3 (the append-only guards dropped and put back) or by
writing the file's bytes. Coordinated edits (two rows swapped, a row and its search entry, a
ledger entry appended with its hash computed as the inspector computes it), objects SQLite lets
anyone name like its own, the file header's fields. Each line: the edit, verify's exit status and
codes, or a traceback's last line (a failure of verify, not a verdict).
"""

from __future__ import annotations

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

A, B = "(SELECT MIN(event_id) FROM events WHERE kind = 'user_message')", \
       "(SELECT MAX(event_id) FROM events WHERE kind = 'user_message' AND session = (SELECT session FROM events " \
       "WHERE event_id = (SELECT MIN(event_id) FROM events WHERE kind = 'user_message')))"


def _swap(column: str) -> list[str]:
    return ["CREATE TEMP TABLE pair AS SELECT " + A + " AS a, " + B + " AS b",
            f"CREATE TEMP TABLE val AS SELECT event_id, {column} AS v FROM events WHERE event_id IN "
            "(SELECT a FROM pair UNION SELECT b FROM pair)",
            f"UPDATE events SET {column} = (SELECT v FROM val WHERE val.event_id = CASE events.event_id WHEN "
            "(SELECT a FROM pair) THEN (SELECT b FROM pair) ELSE (SELECT a FROM pair) END) "
            "WHERE event_id IN (SELECT a FROM pair UNION SELECT b FROM pair)"]


def _append_entry(kind: str, source: str, payload: dict[str, object]) -> Callable[[sqlite3.Connection], None]:
    def run(con: sqlite3.Connection) -> None:
        seq, prev, session, at = con.execute("SELECT seq, hash, session, at FROM ledger ORDER BY seq DESC "
                                             "LIMIT 1").fetchone()
        body = {"seq": seq + 1, "session": session, "kind": kind, "actor": "mallory", "at": at,
                "payload": payload, "source": source, "record_digest": None}
        con.execute("INSERT INTO ledger (seq, session, kind, actor, at, payload, source, record_digest, prev_hash, "
                    "hash) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                    (seq + 1, session, kind, "mallory", at, canonical_json(payload), source, prev,
                     ledger_hash(prev, body)))
    return run


def _header_byte(offset: int, value: int) -> Callable[[Path], None]:
    def run(path: Path) -> None:
        with path.open("r+b") as f:
            f.seek(offset)
            f.write(bytes([value]))
    return run


def _writable_schema(con: sqlite3.Connection) -> None:
    con.execute("CREATE TABLE shadow_copy(c)")
    con.execute("CREATE TRIGGER shadow_trig AFTER INSERT ON events BEGIN INSERT INTO shadow_copy VALUES "
                "(new.content); END")
    con.execute("PRAGMA writable_schema = ON")
    con.execute("UPDATE sqlite_master SET name = 'sqlite_copy', tbl_name = 'sqlite_copy', "
                "sql = replace(sql, 'shadow_copy', 'sqlite_copy') WHERE name = 'shadow_copy'")
    con.execute("UPDATE sqlite_master SET name = 'sqlite_trig', sql = replace(replace(sql, 'shadow_copy', "
                "'sqlite_copy'), 'shadow_trig', 'sqlite_trig') WHERE name = 'shadow_trig'")
    con.execute("PRAGMA writable_schema = OFF")


EDITS: dict[str, list[str] | Callable[[sqlite3.Connection], None] | Callable[[Path], None]] = {
    "two events' contents swapped": _swap("content"),
    "two events' contents and digests swapped": _swap("content") + [
        "DROP TABLE val", "CREATE TEMP TABLE val AS SELECT event_id, digest AS v FROM events WHERE event_id IN "
        "(SELECT a FROM pair UNION SELECT b FROM pair)",
        "UPDATE events SET digest = (SELECT v FROM val WHERE val.event_id = CASE events.event_id WHEN "
        "(SELECT a FROM pair) THEN (SELECT b FROM pair) ELSE (SELECT a FROM pair) END) "
        "WHERE event_id IN (SELECT a FROM pair UNION SELECT b FROM pair)"],
    "an event's text and its trigram index edited together": [
        f"UPDATE events SET content = content || ' (approved by the owner)' WHERE event_id = {A}",
        "INSERT INTO events_fts(events_fts) VALUES ('rebuild')"],
    "the trigram index's ranking changed (rank = bm25(-1))": [
        "INSERT INTO events_fts(events_fts, rank) VALUES ('rank', 'bm25(-1.0)')"],
    "the materials index's ranking changed": [
        "INSERT INTO materials_fts(materials_fts, rank) VALUES ('rank', 'bm25(-1.0)')"],
    "a sif ledger entry appended, hash recomputed": _append_entry(
        "approval", "sif", {"note": "the owner approved writing to production"}),
    "an inspector ledger entry appended, hash recomputed": _append_entry(
        "correction", "inspector", {"key": "constraint.prod", "version": 2, "reason": "owner said so"}),
    "a table and a trigger named sqlite_… (writable_schema)": _writable_schema,
    "a table and a copying trigger named sqlitex… (LIKE's _)": [
        "CREATE TABLE sqlitexcopy(c)", "CREATE TRIGGER sqlitextrig AFTER INSERT ON events BEGIN INSERT INTO "
        "sqlitexcopy VALUES (new.content); END"],
    "a view named SQLITE1v": ["CREATE VIEW SQLITE1v AS SELECT 1"],
    "sqlite_sequence made (an AUTOINCREMENT table, then dropped)": [
        "CREATE TABLE t_auto(id INTEGER PRIMARY KEY AUTOINCREMENT)", "INSERT INTO t_auto DEFAULT VALUES",
        "DROP TABLE t_auto"],
    "PRAGMA application_id changed": ["PRAGMA application_id = 1"],
    "page: every '不得修改生产库' rewritten in place as '可以修改生产库' (same length)": lambda p: p.write_bytes(
        p.read_bytes().replace("不得修改生产库".encode(), "可以修改生产库".encode())),
    "header: text encoding UTF-16le (byte 56)": _header_byte(59, 2),
    "header: legacy file format (bytes 18, 19 = 1)": lambda p: (_header_byte(18, 1)(p), _header_byte(19, 1)(p)),
    "header: incremental-vacuum flag (byte 67)": _header_byte(67, 1),
    "header: default cache size (bytes 48..51)": _header_byte(51, 7),
    "header: change counter bumped (byte 27)": _header_byte(27, 0x7F),
}


def edit(store: Path, how: list[str] | Callable[..., None], name: str) -> None:
    if name.startswith(("header:", "page:")):
        how(store)  # type: ignore[operator]
        return
    guarded_edit(store, how)


def main(source: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="attack-seven-") as folder:
        for number, (name, how) in enumerate(EDITS.items()):
            os.environ["INSPECTOR_DATA_DIR"] = f"{folder}/data-{number}"  # each copy's remembered head alone
            copy = fresh_copy(source, folder)
            try:
                edit(copy, how, name)
            except sqlite3.Error as exc:
                print(f"{name:56} refused by SQLite: {exc}")
                continue
            code, said = verify(copy)
            print(f"{name:56} exit {code}  {said}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
