"""Hostile review six's verify attack: one edit at a time, made with plain sqlite3, then
``inspector verify --json`` on it (docs/reviews/untrusted-six.md).

    python scripts/attack_verify_six.py STORE

STORE is left untouched: each edit is made on a fresh copy whose head is remembered first (a
verify before the edit, as on a reviewer's machine), with the append-only guards dropped and
put back. The edits are the ones scripts/tamper_verify.py and bench/verify_mutations.py do not
make: a value stored under another type (same bytes), the format's own header fields, the
query planner's tables, the journal mode. Each line: the edit, verify's exit status and codes
(a traceback is printed as such: it is a failure of verify, not a verdict).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.store.schema import FORMAT_VERSION  # noqa: E402

GUARDS = ("ledger_no_update", "ledger_no_delete", "events_no_update", "chunks_no_update")
FIRST_TEXT = "(SELECT MIN(event_id) FROM events WHERE content IS NOT NULL)"
EDITS: dict[str, list[str]] = {
    "events.content as BLOB": [f"UPDATE events SET content = CAST(content AS BLOB) WHERE event_id = {FIRST_TEXT}"],
    "events.extra as BLOB": ["UPDATE events SET extra = CAST(extra AS BLOB) WHERE event_id = 1"],
    "events.at as BLOB": ["UPDATE events SET at = CAST(at AS BLOB) WHERE event_id = 1"],
    "sessions.title as BLOB": ["UPDATE sessions SET title = CAST(title AS BLOB) WHERE rowid = 1"],
    "state_records.value as BLOB": ["UPDATE state_records SET value = CAST(value AS BLOB) WHERE rowid = 1"],
    "summaries.text as BLOB": ["UPDATE summaries SET text = CAST(text AS BLOB) WHERE rowid = 1"],
    "ledger.payload as BLOB": ["UPDATE ledger SET payload = CAST(payload AS BLOB) WHERE seq = 2"],
    "ledger.hash as BLOB": ["UPDATE ledger SET hash = CAST(hash AS BLOB) WHERE seq = 2"],
    "material_chunks.data as TEXT": ["UPDATE material_chunks SET data = CAST(data AS TEXT) WHERE rowid = 1"],
    "sessions.context_version as REAL": ["UPDATE sessions SET context_version = context_version + 0.5 WHERE rowid = 1"],
    "events.seq + 0.0 (stored back as the integer)": ["UPDATE events SET seq = seq + 0.0 WHERE event_id = 1"],
    "ledger.hash upper-cased (last entry)": ["UPDATE ledger SET hash = upper(hash) WHERE seq = (SELECT MAX(seq) "
                                             "FROM ledger)"],
    "a NUL after an event's text": [f"UPDATE events SET content = content || char(0) WHERE event_id = {FIRST_TEXT}"],
    "user_version one older": [f"PRAGMA user_version = {FORMAT_VERSION - 1}"],
    "user_version one newer": [f"PRAGMA user_version = {FORMAT_VERSION + 1}"],
    "application_id 0": ["PRAGMA application_id = 0"],
    "ANALYZE, sqlite_stat1 forged": ["ANALYZE", "UPDATE sqlite_stat1 SET stat = '1 1'"],
    "journal_mode DELETE": ["PRAGMA journal_mode = DELETE"],
    "reasoning_grams dropped": ["DROP TABLE IF EXISTS reasoning_grams"],
}


def verify(store: Path) -> tuple[int, str]:
    run = subprocess.run([sys.executable, "-m", "inspector", "verify", str(store), "--json"], capture_output=True,
                         text=True)
    if "Traceback" in run.stderr:
        return run.returncode, "TRACEBACK " + run.stderr.strip().splitlines()[-1]
    try:
        doc = json.loads(run.stdout)
    except ValueError:
        return run.returncode, run.stdout[:120]
    if "error" in doc:
        return run.returncode, doc["error"]["code"]
    return run.returncode, ", ".join(sorted({p["code"] for p in doc["problems"]})) or "ok"


def edit(store: Path, how: list[str] | Callable[[sqlite3.Connection], None]) -> None:
    """Run ``how`` (statements, or a function of the connection) with plain sqlite3, the
    append-only guards dropped for it and put back after."""
    con = sqlite3.connect(store, isolation_level=None)
    try:
        guards = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        for name in GUARDS:
            con.execute(f"DROP TRIGGER IF EXISTS {name}")
        if callable(how):
            how(con)
        else:
            for sql in how:
                con.execute(sql)
        for name, sql in guards:
            if name in GUARDS:
                con.execute(sql)
    finally:
        con.close()


def fresh_copy(source: Path, folder: str) -> Path:
    """A new copy of ``source`` in ``folder`` (its old log gone), verified once so its head is
    remembered, as a verify before the edit does on a reviewer's machine."""
    copy = Path(folder) / "store.db"
    for part in ("", "-wal", "-shm"):
        Path(f"{copy}{part}").unlink(missing_ok=True)
    shutil.copyfile(source, copy)
    verify(copy)
    return copy


def main(source: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="attack-six-") as folder:
        os.environ.setdefault("INSPECTOR_DATA_DIR", folder)  # the remembered heads stay in the scratch folder
        for name, statements in EDITS.items():
            copy = fresh_copy(source, folder)
            try:
                edit(copy, statements)
            except sqlite3.Error as exc:
                print(f"{name:48} refused by SQLite: {exc}")
                continue
            code, said = verify(copy)
            print(f"{name:48} exit {code}  {said}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
