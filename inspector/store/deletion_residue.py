"""A carried-out deletion whose text is still in the store's file: its commit is in the log, and
the file's pages still hold what it removed until the log is copied into the file.

A deletion commits (its removals and its ledger entry, one transaction) and then checkpoints
and truncates the log (services/deletions.py): only then are the pages in the file — and the
log's older frames — free of the deleted text. SQLite cannot make the two one step in WAL
mode. A deletion killed between them (store-fault-six: 4 copies of a phone number in the file)
left the text there, said by nothing, until some later process happened to close the store
last. So every writable open finishes it (:func:`settle`), and what cannot be finished (a
store opened read-only, or readers holding the log past a short wait) is named
(:func:`pending`) by ``verify`` and by the app when it opens the store.

Told without any mark of its own: the file's ledger (read without the log, ``immutable``)
ends before a deletion entry the store's log holds.

The other half: a checkpoint that copied the whole log into the file but could not empty the
log (a program was reading it: the app, a second reviewer's window). The file is clean, but the
log's older frames — written before the deletion, in the same generation of the log — still
hold the text, and nothing said so or finished it (store-fault-seven, found 3). The deletion then
leaves a note beside the store (``s.db-deletion``: the request and its ledger entry, no content),
and every writable open empties the log while the note is there; a log already gone (the last
program to close the store removes it) takes the note with it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

from inspector.domain.terminal_safe import inert
from inspector.store import held_files
from inspector.store.sqlite_connections import BUSY_TIMEOUT_MS, fetch_one

WAL_HEADER = 32  # a log no longer than its header holds no frame
SETTLE_WAIT_MS = 1_000  # how long an open waits for other programs' readers to let the log be truncated


def _file_head(path: Path) -> int | None:
    """The last ledger seq the file itself holds (0 for none), read without the log, or None when
    that cannot be read. Through SQLite (``immutable``): a plain open and close of a file this
    process holds would drop its locks (store/held_files.py)."""
    try:
        db = sqlite3.connect(f"file:{quote(os.fsencode(path.resolve()))}?immutable=1", uri=True)
    except sqlite3.Error:
        return None
    try:
        row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM ledger").fetchone()
        return int(row[0])
    except sqlite3.Error:
        return None
    finally:
        db.close()


def _note(path: Path) -> Path:
    return Path(f"{path}-deletion")


def unfinished(path: Path, request: str, seq: int) -> None:
    """Leave the note that deletion ``request`` (ledger entry ``seq``) could not empty the log."""
    try:
        _note(path).write_text(json.dumps({"request": request, "seq": seq}) + "\n", encoding="utf-8")
    except OSError:  # a full or read-only medium: the delete command said the log was not emptied
        pass


def _noted(path: Path) -> dict[str, Any] | None:
    try:
        found = json.loads(_note(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or not isinstance(found.get("seq"), int):
        return None
    return {"request": str(found.get("request")), "seq": found["seq"]}


def _drop_note(path: Path) -> None:
    try:
        _note(path).unlink()
    except OSError:
        pass


def _in_log(found: dict[str, Any]) -> dict[str, Any]:
    return {**found, "where": "wal",
            "message": f"a carried-out deletion's text may still be in the store's -wal file (request "
                       f"{inert(found['request'])}, ledger entry {found['seq']}: its checkpoint copied the log into the "
                       "file, but a program reading the store kept the log from being emptied); open the store "
                       "writable, with the programs reading it closed, to finish"}


def _logged(path: Path) -> bool:
    try:
        return os.stat(f"{path}-wal").st_size > WAL_HEADER
    except OSError:
        return False


async def pending(store: Any) -> dict[str, Any] | None:
    """The latest carried-out deletion whose text may still be in the store's file, with a
    sentence, or None (also for a PostgreSQL store: its own log is the server's)."""
    if getattr(store, "dialect", "sqlite") != "sqlite":
        return None
    if not _logged(store.path):
        if _noted(store.path) is not None and store.has_writer:
            _drop_note(store.path)  # the log is gone (emptied by the last program that closed the store)
        return None
    head = _file_head(store.path)
    if head is None:
        return None
    row = await fetch_one(store.db, "SELECT seq, json_extract(payload, '$.request') FROM ledger "
                                    "WHERE kind = 'deletion' AND seq > ? ORDER BY seq DESC LIMIT 1", (head,))
    if row is None:
        noted = _noted(store.path)
        return None if noted is None else _in_log(noted)
    request = str(row[1])
    return {"request": request, "seq": int(row[0]), "where": "file",
            "message": f"a carried-out deletion's text is still in the store's file (request {inert(request)}, ledger "
                       f"entry {int(row[0])}: its commit is in the log, not yet copied into the file — the process "
                       "was stopped, or other programs were reading); open the store writable, with the programs "
                       "reading it closed, to finish"}


async def settle(store: Any) -> dict[str, Any] | None:
    """Finish a carried-out deletion's checkpoint on a writable open (see the module's docstring);
    what is still pending afterwards, or None. Waits at most SETTLE_WAIT_MS for readers. What an
    open finished is kept in ``store.deletion_finished`` (said by verify and the app)."""
    found = await pending(store)
    if found is None or not store.has_writer:
        return found
    writer = store.watch_db  # the writer: the only connection allowed to checkpoint
    await writer.execute(f"PRAGMA busy_timeout = {SETTLE_WAIT_MS}")
    try:
        with held_files.writing(store.path):
            await fetch_one(writer, "PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.OperationalError:  # busy past the wait: said below
        pass
    finally:
        await writer.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    left = await pending(store)
    if left is None:
        _drop_note(store.path)
        store.deletion_finished = {
            "request": found["request"], "seq": found["seq"],
            "message": f"finished carrying out deletion {inert(found['request'])} (ledger entry {found['seq']}) at this "
                       "open: the store's " + ("-wal file, which still held its text, was emptied" if
                                               found.get("where") == "wal" else "file no longer holds its text")}
    return left
