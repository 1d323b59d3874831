"""Where the store of an orphaned log went, as far as can be told (storefault-ten).

``orphan_wal`` (storefault-nine) refuses a path with no store file but a log with pages beside it:
a program holding the store was killed after the file was moved or deleted. It could not say where
the file went: a log names no file. What can be said is read from the log itself — its page size,
its commits, the store's size after the last one, and, when the log holds page 1, that it is a
Context Inspector store and its format — and from the folder: each file there that could be the
store (SQLite's header, this application's id, the same page size, no log of its own, no longer
than the log says) is tried against the log as the open would try it (store/wal_owner.py): a hard
link to it and a copy of the log in a hidden folder beside it, removed again, so neither file is
touched. A file the log is the own log of is named; when none is, that is said plainly.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import struct
import tempfile
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from inspector.domain.errors import InspectorError
from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import line_safe
from inspector.store import wal_commits, wal_owner
from inspector.store.schema import APPLICATION_ID

LOOKED_AT_MOST = 200  # folder entries looked at: a huge folder is not read through
TRIED_AT_MOST = 5  # candidate files tried against the log
TRY_BELOW = 256 * 1024 * 1024  # larger candidates are named as possible, not tried (the check reads them)


@dataclass(frozen=True)
class LogFacts:
    page_size: int
    commits: int
    pages_after: int  # the store's size in pages after the log's last commit (0: no commit)
    application_id: int | None  # from the log's latest page 1, when it holds one
    format: int | None

    def said(self) -> str:
        if not self.commits:
            return f"the log holds no whole commit (pages of {self.page_size:,} bytes)"
        what = ""
        if self.application_id is not None:
            what = (f"; its page 1 says a Context Inspector store of format {self.format}"
                    if self.application_id == APPLICATION_ID else "; its page 1 says it is not a Context Inspector store")
        return (f"the log holds {counted(self.commits, 'commit')} in pages of {self.page_size:,} bytes, after which the "
                f"store was {self.pages_after * self.page_size:,} bytes ({counted(self.pages_after, 'page')}){what}")


def read_facts(wal: Path) -> LogFacts | None:
    """What the log says of its store, or None for no log SQLite would read."""
    try:
        with wal.open("rb") as fh:
            head = fh.read(wal_commits.HEADER)
            if len(head) < wal_commits.HEADER:
                return None
            magic, _v, page_size, _seq, salt1, salt2, _c0, _c1 = struct.unpack(">8I", head)
            if magic not in wal_commits.MAGIC or page_size < 512:
                return None
            pages_after, page1 = 0, None
            while True:
                frame = fh.read(wal_commits.FRAME_HEADER)
                if len(frame) < wal_commits.FRAME_HEADER:
                    break
                page, after, s1, s2 = struct.unpack(">4I", frame[:16])
                if (s1, s2) != (salt1, salt2):
                    break
                data = fh.read(page_size)
                if page == 1 and len(data) >= 100:
                    page1 = data[:100]
                if after:
                    pages_after = after
        commits = len(wal_commits.commits(wal, checked=True))
    except OSError:
        return None
    app = fmt = None
    if page1 is not None:
        fmt, app = struct.unpack(">i", page1[60:64])[0], struct.unpack(">i", page1[68:72])[0]
    return LogFacts(page_size, commits, pages_after, app, fmt)


def _could_be(path: Path, facts: LogFacts) -> bool:
    try:
        if not path.is_file() or path.is_symlink() or path.name.endswith(("-wal", "-shm", "-journal")):
            return False
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(100)
        own_log = Path(f"{path}-wal")
        if own_log.exists() and own_log.stat().st_size > wal_owner.WAL_HEADER:
            return False  # a store with a log of its own is not the one whose log was left behind
    except OSError:
        return False
    if len(head) < 100 or not head.startswith(b"SQLite format 3\x00"):
        return False
    page_size = int.from_bytes(head[16:18], "big") or 65536
    return (int.from_bytes(head[68:72], "big") == APPLICATION_ID and page_size == facts.page_size
            and (facts.pages_after == 0 or size <= facts.pages_after * facts.page_size))


def _takes(candidate: Path, wal: Path) -> bool:
    """The log is ``candidate``'s own, as the open judges it, tried on a hard link and a copy of the
    log in a hidden folder beside it (removed again). False whenever it cannot be told."""
    try:
        folder = Path(tempfile.mkdtemp(prefix=".inspector-orphan-", dir=candidate.parent))
    except OSError:
        return False
    try:
        trial = folder / "store.db"
        os.link(candidate, trial)
        shutil.copyfile(wal, f"{trial}-wal")
        wal_owner.check_wal_is_own(trial)  # foreign_wal and its kin raise: not its log
        base = f"file:{quote(os.fsencode(trial))}"
        with closing(sqlite3.connect(base + "?immutable=1", uri=True)) as plain, \
                closing(sqlite3.connect(base + "?mode=ro", uri=True)) as through:
            query = "SELECT value FROM store_meta WHERE key = 'digest_key'"
            key = plain.execute(query).fetchone()
            own = key is not None and through.execute(query).fetchone() == key  # the same store's key, read through it
            entries = "SELECT count(*) FROM ledger"
            grew = through.execute(entries).fetchone()[0] >= plain.execute(entries).fetchone()[0]
        return bool(own and grew)
    except (OSError, sqlite3.Error, InspectorError):
        return False
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def said(target: Path, wal: Path) -> str:
    """The sentence's part on where the store went: what the log says, and the file beside it that
    takes the log as its own, or plainly that none does."""
    facts = read_facts(wal)
    if facts is None:
        return "The log cannot be read as one, so nothing can be told of its store."
    folder = target.parent
    try:
        entries = sorted(folder.iterdir())[:LOOKED_AT_MOST]
    except OSError:
        entries = []
    possible = [p for p in entries if _could_be(p, facts)]
    tried = [p for p in possible[:TRIED_AT_MOST] if p.stat().st_size < TRY_BELOW]
    taken = [p for p in tried if _takes(p, wal)]
    text = f"From the log alone: {facts.said()}. "
    if len(taken) == 1:
        return text + (f"Beside it, {line_safe(taken[0].name)} takes this log as its own (its key and ledger go on in "
                       "the log, as opening it would check): that is where the store went, if it was moved there — "
                       f"with no program holding it, move {wal.name} to {line_safe(taken[0].name)}-wal and open it.")
    if taken:
        names = ", ".join(line_safe(p.name) for p in taken)
        return text + (f"Beside it, each of {names} takes this log as its own (copies of one store, as far as the log "
                       "can tell): the one the program held cannot be told from the log — move it beside that one, "
                       "under its name with -wal, with no program holding it.")
    parts = []
    if tried:
        parts.append(f"{', '.join(line_safe(p.name) for p in tried)} {'was' if len(tried) == 1 else 'were'} tried "
                     "against it and " + ("is not its store" if len(tried) == 1 else "are not its store"))
    untried = [p for p in possible if p not in tried]
    if untried:
        parts.append(f"{', '.join(line_safe(p.name) for p in untried[:TRIED_AT_MOST])} could be by its header "
                     "alone (not tried: too large, or past the first few)")
    looked = f" ({'; '.join(parts)})" if parts else ""
    return text + (f"No store in {line_safe(str(folder))} takes it{looked}, of "
                   f"{counted(len(entries), 'entry', 'entries')} looked at: a log names no file, so where the store "
                   "went cannot be told from it.")
