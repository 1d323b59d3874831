"""Whether the write-ahead log beside a store file is the store's own.

SQLite applies a ``-wal`` file to whatever database file bears its name: the log holds no
mark of the database it belongs to. A log copied there from another store (or left beside a
file restored from a backup) was read as the store's latest pages — ``verify``, a read, then
checkpointed it into the file and left a damaged store the size of the other one. So before
a store no connection of this process holds is opened, a log beside it is compared with the
file: read without the log (``immutable``) and through it (``mode=ro``, which never
checkpoints), its schema may only gain what a migration adds, and its ledger up to the file's
last entry must be the same (the ledger is append-only, so its own log only adds entries), or
with no entry yet, its key. And each of its commits must carry the inspector's commit mark
(store/wal_commits.py): a copy whose rows another program changed keeps schema and ledger, and
only the mark tells its log apart. Anything else is refused with
``foreign_wal`` before SQLite may write; a check that cannot read (a store being written by
another process this instant) refuses nothing. Reading through a log makes SQLite create its
``-shm`` index: one the check made is removed again when no other process has taken it up, so a
refused open leaves the folder as it was (tests/test_foreign_wal_leaves_no_shm.py).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import struct
from pathlib import Path
from urllib.parse import quote

from inspector.domain.errors import NotAStore, StoreFileChanged
from inspector.store import held_files, wal_commits
from inspector.store.schema_expected import expected_schema, schema_of

WAL_HEADER = 32  # bytes; a log no longer than its header holds no page


def _read(uri: str) -> tuple[str | None, tuple[int, str] | None, sqlite3.Connection]:
    db = sqlite3.connect(uri, uri=True)
    key = db.execute("SELECT value FROM store_meta WHERE key = 'digest_key'").fetchone()
    head = db.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()
    return (key[0] if key else None), (tuple(head) if head else None), db  # type: ignore[return-value]


def _copying(db: sqlite3.Connection) -> bool:
    """A copy ``migrate`` has not finished takes the source's key in its log (store/migration_marker.py)."""
    try:
        return db.execute("SELECT 1 FROM store_meta WHERE key = 'migration_unfinished'").fetchone() is not None
    except sqlite3.Error:
        return False


def _schema_is_own(file_view: sqlite3.Connection, log_view: sqlite3.Connection) -> bool:
    """The store's own log changes its schema only as a migration does: each table, index or
    trigger it adds or alters is one the current format holds, spelled the same. Another
    database's log that leaves the ledger's pages alone (a table added, its pages written over
    the store's) kept the same ledger head and was taken for the store's own (fresh-eyes, session 11)."""
    before, after = schema_of(file_view), schema_of(log_view)
    if before == after:
        return True
    want = expected_schema()
    return all(want.get(item, _ABSENT) == sql for item, sql in after.items() if before.get(item, _ABSENT) != sql)


_ABSENT = object()


SHM_DMS = 128  # the byte of -shm every open SQLite connection holds a shared lock on (unix VFS's "DMS" slot)


def _live_elsewhere(path: Path) -> bool:
    """Another process has the store open now: its log is live, not one laid beside the file.

    A program that changed rows and still holds the store (``sqlite3`` left open) committed into
    the store's own log; moving that log away, as the refusal says, would lose what it holds, so
    its edit is left to ``verify`` (the rows' digests and seals name it). Asked with F_GETLK on
    -shm's DMS byte, which sees other processes' locks, never this one's — and only ever asked for
    a store no connection of this process holds (closing a descriptor drops this process's locks)."""
    try:
        fd = os.open(f"{path}-shm", os.O_RDONLY)
    except OSError:
        return False
    try:
        probe = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, SHM_DMS, 1, 0)
        found = struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, probe))[0]
        return found != fcntl.F_UNLCK
    except OSError:
        return False
    finally:
        os.close(fd)


LOCK_BYTES = (0x40000000, 512 + 2)  # the database file's pending, reserved and shared lock bytes (unix VFS)


def _file_locked_elsewhere(path: Path) -> bool:
    """Another process holds a lock on the store file itself. Every SQLite connection in WAL mode
    keeps a shared lock there while it is open (between transactions too), taken before it uses
    the log and given up after it: a log that is live elsewhere while nobody locks this file is
    the log of another file — the store that was at this path before it was moved over."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return True  # cannot be asked: nothing is concluded
    try:
        probe = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, LOCK_BYTES[0], LOCK_BYTES[1], 0)
        return struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, probe))[0] != fcntl.F_UNLCK
    except OSError:
        return True
    finally:
        os.close(fd)  # no connection of this process holds this file (see _live_elsewhere)


def remove_made(target: Path, had: dict[str, bool]) -> None:
    """Remove the empty ``-wal`` and the ``-shm`` a refused (or read-only) open made beside the store
    (on a full disk they held its last free space), unless another process has taken them up since.
    ``had``: which of them were there before the open. Only while the index's DMS byte is locked
    here, which proves no other connection has the store open (see remove_made_shm): an empty log
    another process had just opened was unlinked under it before (a read-only read closing beside a
    writer that had not written yet would have sent its commits into an unlinked file)."""
    if held_files.holds(target):  # another Store of this process has it open: closing a descriptor of its
        return  # index here would drop that store's locks (store/held_files.py); the files are its own
    shm = f"{target}-shm"
    try:
        fd: int | None = os.open(shm, os.O_RDWR)
    except OSError:
        fd = None  # no index: nobody has the store open in WAL mode
    try:
        if fd is not None:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS, os.SEEK_SET)  # raises when held
        wal = Path(f"{target}-wal")
        if not had["-wal"] and wal.stat().st_size == 0:
            wal.unlink()
    except OSError:  # held by another process (or gone): theirs now
        pass
    finally:
        if fd is not None:
            os.close(fd)  # drops the lock; no connection of this process holds the store (see _live_elsewhere)
    if not had["-shm"]:
        remove_made_shm(target)


def remove_made_shm(path: Path) -> None:
    """Remove the -shm this check's reading made, unless another process has the store open by
    now: the DMS byte's write lock, held while the file is unlinked, proves none has (an opening
    SQLite takes a shared lock there before it uses the index, and waits for this one)."""
    shm = f"{path}-shm"
    try:
        fd = os.open(shm, os.O_RDWR)
    except OSError:
        return
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS, os.SEEK_SET)
        if os.fstat(fd).st_ino == os.stat(shm).st_ino:
            os.unlink(shm)
    except OSError:  # held by another process (or gone): theirs now
        pass
    finally:
        os.close(fd)  # drops the lock; no connection of this process holds the store (see _live_elsewhere)


def _unmarked_commits(wal: Path, file_view: sqlite3.Connection, log_view: sqlite3.Connection) -> int:
    """How many of the log's commits the inspector did not make: none are asked of a store whose
    file holds no commit mark yet (one last written by a version before the mark, whose own log
    a crash may have left without it); every one once the file has it."""
    if file_view.execute("SELECT 1 FROM store_meta WHERE key = ?", (wal_commits.MARK_KEY,)).fetchone() is None:
        return 0
    pages = {int(r[0]) for view in (file_view, log_view)
             for r in view.execute("SELECT pageno FROM dbstat WHERE name = 'store_meta'")}
    return wal_commits.unmarked(wal, pages)


def _count(view: sqlite3.Connection) -> int | None:
    row = view.execute("SELECT value FROM store_meta WHERE key = ?", (wal_commits.MARK_KEY,)).fetchone()
    try:
        return int(row[0]) if row is not None else None
    except (TypeError, ValueError):
        return None


def _made(wal: Path) -> int:
    """How many commits SQLite would replay from ``wal`` now (0 when it is gone)."""
    try:
        return len(wal_commits.commits(wal))
    except OSError:
        return 0


def _written_against_later(wal: Path, file_view: sqlite3.Connection, log_view: sqlite3.Connection,
                           made_before: int) -> tuple[int, int, int] | None:
    """(the file's commit count, the count through the log, the log's commits) when the log was
    written against a later state of the store than the file holds, else None.

    Each commit of the inspector raises the count by one (store/wal_commits.py), so the log's N
    commits lead from the file's count to at most N more — fewer when some were already copied in
    by a checkpoint. More than N: the file is older than what the log was written on — a copy put
    back (``mv backup.db s.db``) under a program that held the store and was then killed, so its
    log stayed beside the copy with no lock on it. Its ledger chains on from the copy's last entry
    (the checks above pass), and opening laid its pages over the copy: the restore undone, with
    pages of two states mixed (storefault-nine, gap 3; store-fault-eight left it).

    ``made_before``: the log's commits counted before either view was read. A store of this process
    that is closing (no longer in held_files, its locks invisible to F_GETLK) may checkpoint and
    empty the log between the reads: counted only after, the log's commits were gone while the
    count through it had them, and a store being reopened was refused (seen as a flaky app test)."""
    before, after = _count(file_view), _count(log_view)
    if before is None or after is None:
        return None
    made = max(made_before, _made(wal))
    return None if 0 <= after - before <= made else (before, after, made)


def _refuse_not_a_log(path: Path, wal: Path) -> None:
    """``foreign_wal`` for a ``-wal`` that does not begin as a write-ahead log. SQLite ignores such
    a file and, at the next close, removes it: a read (``sessions``) deleted whatever file of that
    name someone had put there (storefault-nine). A header of zeros is let through: a log whose
    header write was cut by a power failure (SQLite ignores it too, and it held nothing)."""
    try:
        with wal.open("rb") as fh:
            head = fh.read(WAL_HEADER)
    except OSError:
        return
    if len(head) < 4 or int.from_bytes(head[:4], "big") in wal_commits.MAGIC or not any(head):
        return
    shm = f" (and {path.name}-shm)" if os.path.lexists(f"{path}-shm") else ""
    raise NotAStore(f"{wal.name} lies beside the store {path} but is not a write-ahead log at all (its first bytes are "
                    f"not SQLite's log header); opening the store would remove it. Nothing was opened — move {wal.name}"
                    f"{shm} away, then open the store again", code="foreign_wal")


def check_wal_is_own(path: Path) -> None:
    """Raise ``foreign_wal`` when ``path``'s ``-wal`` file is not this store's own log."""
    wal = Path(f"{path}-wal")
    try:
        if wal.stat().st_size <= WAL_HEADER:
            return
    except OSError:
        return
    _refuse_not_a_log(path, wal)
    base = f"file:{quote(os.fsencode(path.resolve()))}"
    live = _live_elsewhere(path)  # before any connection of this check opens: see there
    if live and not _file_locked_elsewhere(path):
        # ``mv backup.db s.db`` under an open app: the app's log stays beside the new file, and
        # opening it applied the app's uncopied acts to the backup (its ledger chains on, so the
        # checks below take it for the file's own) — the restore silently undone (store-fault-eight).
        raise StoreFileChanged(f"{path} was put in place (moved over the store that was there) while another program "
                               f"still has that store open: the log beside it ({wal.name}) is that store's, and opening "
                               "now would apply it to this file. Nothing was opened — close that program (the app, a "
                               "follow) first, then open the store again", code="store_file_replaced")
    had_shm = os.path.lexists(f"{path}-shm")
    file_view = log_view = None
    foreign, behind = 0, None
    made_before = _made(wal)  # before the views: see _written_against_later
    try:
        file_key, file_head, file_view = _read(base + "?immutable=1")
        try:
            log_view = sqlite3.connect(base + "?mode=ro", uri=True)
            # the schema first: another database's log replaces it, and the key query then failed "no such
            # table: store_meta" — an OperationalError, taken below for a log that cannot be read here, so
            # the log was applied and the store became the other database (storefault-nine)
            same = _schema_is_own(file_view, log_view)
            log_key = log_view.execute("SELECT value FROM store_meta WHERE key = 'digest_key'").fetchone() if same \
                else None
            if same and file_head is not None:  # the chain the file holds goes on in the log, entry for entry
                row = log_view.execute("SELECT hash FROM ledger WHERE seq = ?", (file_head[0],)).fetchone()
                same = row is not None and row[0] == file_head[1]
            elif same and file_key is not None:  # no entry yet (a store just made, a copy under way): its key
                same = log_key is None or log_key[0] == file_key or _copying(log_view)
            foreign = _unmarked_commits(wal, file_view, log_view) if same and not live else 0
            behind = _written_against_later(wal, file_view, log_view, made_before) if same and not foreign and not live else None
        except sqlite3.OperationalError:  # the log cannot be read here (no -shm on a read-only medium): not told
            return
        except sqlite3.DatabaseError:  # the log made the store unreadable: not its own
            same = False
    except sqlite3.Error:  # the file itself cannot be read so: the ordinary open says what is wrong
        return
    finally:
        for db in (file_view, log_view):
            if db is not None:
                db.close()
        if not had_shm:
            remove_made_shm(path)
    # The index named only when it is there (one the check made is gone: store/wal_owner.py, remove_made_shm).
    shm = f" (and {path.name}-shm)" if os.path.lexists(f"{path}-shm") else ""
    if behind is not None:
        raise NotAStore(f"{wal.name} lies beside the store {path}, but it was written against a later state of this "
                        f"store than the file now holds (the file counts {behind[0]:,} commits; the log's "
                        f"{behind[2]:,} lead to {behind[1]:,}): the file was put back from an earlier copy while a "
                        "program had the store open, and that program ended without closing it. Opening would lay the "
                        f"log's pages over the copy and undo the restore. Nothing was opened — move {wal.name}{shm} "
                        "away (it holds what that program wrote after the copy), then open the store again",
                        code="foreign_wal")
    if same and foreign:
        said = "1 of its commits was" if foreign == 1 else f"{foreign} of its commits were"
        raise NotAStore(f"{wal.name} lies beside the store {path}, but {said} not made by Context Inspector (rows "
                        "changed by another program, in this store or a copy of it, with no ledger entry); opening the "
                        f"store would write those changes into it. Nothing was opened — move {wal.name}{shm} away, "
                        "then open the store again", code="foreign_wal")
    if not same:
        raise NotAStore(f"{wal.name} lies beside the store {path} but is not its log (it holds another database's "
                        f"pages); opening the store would write them into it. Nothing was opened — move {wal.name}{shm} "
                        "away, then open the store again", code="foreign_wal")
