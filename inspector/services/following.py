"""Keeping a store's copy of a growing transcript up to date (an agent still running).

Every import of a transcript records, in its ledger entry, the format and the byte extent
it covered and a keyed digest of the file up to there. Following continues from that
offset: only complete lines are imported (a partial last line waits for its newline), each
batch in one transaction with its own ledger entry, through the same validated import as
everything else. A file that is shorter than what was imported, or whose imported bytes
changed, or that was replaced by another file, was rewritten rather than appended to: it
is refused (``source_truncated`` / ``source_rewritten``) and nothing is merged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.domain.canonical import content_hash
from inspector.domain.errors import BadInput, NotAStore
from inspector.domain.file_name_text import text_name
from inspector.domain.protocol import ProtocolProblem
from inspector.services import cassette, deletion_recurrence
from inspector.services.grown_file import cut_line_refusal, held_note, line_goes_on
from inspector.services.reading import open_regular
from inspector.services.reading import read_import_file as read_bytes
from inspector.store.connection import Store, fetch_one, open_store
from inspector.store.location import is_url
from inspector.store.tables import SPECS

if TYPE_CHECKING:
    from inspector.domain.formats.tail import Resume
    from inspector.services.importing import ImportReport

# The converters and the importer load when there is something to import: an unchanged
# file (``inspector FILE`` opened again) is answered from the ledger without them (issue 18).

SAMPLE_BYTES = 4096  # the bytes before the offset compared on every poll (the whole prefix is checked once)
ProgressFn = Callable[[str, int, int], None]


@dataclass(slots=True)
class ImportedExtent:
    """What the store's last import of a file covered."""

    session: str
    fmt: str | None
    end: int | None
    file_digest: str
    start: int = 0  # where that import began in the file (past 0: it imported what was appended)


@dataclass(slots=True)
class FollowStep:
    events: list[dict[str, Any]] = field(default_factory=list)  # new events, in seq order
    offset: int = 0  # bytes of the file now imported
    waiting: int = 0  # bytes of a partial last line not imported yet
    # a value a carried-out deletion removed, in a new event (services/deletion_recurrence.py)
    returned: list[ProtocolProblem] = field(default_factory=list)


async def imported_extent(store: Store, file_name: str) -> ImportedExtent | None:
    row = await fetch_one(store.db, "SELECT session, payload FROM ledger WHERE kind = 'import' AND "
                          "json_extract(payload, '$.file_name') = ? ORDER BY seq DESC LIMIT 1", (file_name,))
    if row is None:
        return None
    payload = json.loads(row[1])
    span = payload.get("bytes")
    return ImportedExtent(str(row[0]), payload.get("format"), int(span[1]) if isinstance(span, list) else None,
                          str(payload.get("file_digest", "")), int(span[0]) if isinstance(span, list) else 0)


def _refuse_changed(source: Path, size: int, imported: int, why: str | None = None) -> BadInput:
    if size < imported:
        return BadInput(f"{text_name(source.name)} is now {size:,} bytes, shorter than the {imported:,} bytes already imported: "
                        "it was truncated or replaced, not appended to; nothing was merged (the store keeps what was imported; "
                        "import the file into a new store to see it as it is now)", code="source_truncated")
    return BadInput(f"{text_name(source.name)} was rewritten, not appended to: {why or f'its first {imported:,} bytes are no longer what was imported'}; "
                    "nothing was merged (import it into a new store to see its current state)", code="source_rewritten")


class Follower:
    """Imports what is appended to one transcript into a store, batch by batch."""

    def __init__(self, store: Store, source: Path, *, actor: str) -> None:
        self.store, self.source, self.actor = store, source, actor
        self.resume: Resume | None = None
        self.mac: Any = None
        self.sample = b""
        self.inode: int | None = None
        # The extractor's reading of the session, kept between looks (fact_proposals.Followed).
        self.followed: Any = None

    @classmethod
    async def open(cls, store_path: Path, source: Path, *, actor: str) -> Follower:
        """A follower on its own connection to the store, positioned where the last import ended."""
        store = await open_store(store_path)  # an older store's upgrade held until the file is known to go on
        follower = cls(store, source, actor=actor)
        try:
            await follower.attach()
            await store.keep_upgrade()  # not held while it waits: another writer would wait for it
        except BaseException:
            await store.close()  # a refused attach (a rewritten file): the store as it was
            raise
        return follower

    async def close(self) -> None:
        await self.store.close()

    async def attach(self, data: bytes | None = None) -> None:
        """Check that the file still starts with what was imported (the whole prefix, once)."""
        from inspector.domain.formats.detect import detect
        from inspector.domain.formats.tail import APPENDABLE

        data = read_bytes(self.source) if data is None else data
        self.inode = os.stat(self.source).st_ino
        extent = await imported_extent(self.store, text_name(self.source.name))
        if extent is None:
            raise BadInput(f"{self.store.path.name} holds no import of {text_name(self.source.name)} to continue",
                           code="not_imported")
        fmt = extent.fmt or detect(data[:1 << 16], text_name(self.source.name))
        if fmt not in APPENDABLE:
            raise BadInput(f"{text_name(self.source.name)} is a {fmt} file, which its tool rewrites as a whole rather than "
                           "appending to, so it cannot be followed; open it again to import its current state",
                           code="not_appendable")
        end = extent.end if extent.end is not None else len(data)
        if len(data) < end:
            raise _refuse_changed(self.source, len(data), end)
        self.mac = hmac.new(self.store.digest_key, data[:end], hashlib.sha256)
        if "hmac-sha256:" + self.mac.hexdigest() != extent.file_digest:
            raise _refuse_changed(self.source, len(data), end)
        if line_goes_on(data, end):  # an import that read half a line (before imports waited for its end)
            raise cut_line_refusal(text_name(self.source.name), data, end)
        self.resume = await self._resume(extent.session, fmt, end, data[:end].count(b"\n"))
        self.sample = data[max(0, end - SAMPLE_BYTES):end]

    async def _resume(self, session: str, fmt: str, offset: int, line: int, before: Resume | None = None) -> Resume:
        """Where the next tail continues. ``before``: the resume point this import started from,
        whose call→tool map only needs the calls imported since (a poll reads its own rows, not
        every tool call of the session again)."""
        from inspector.domain.formats.tail import Resume

        db = self.store.db
        seq = await fetch_one(db, "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session = ?", (session,))
        # past the events a deletion removed too: when it took the last ones, the next line numbered
        # from the stored maximum took a deleted event's seq, and the import skipped it as that
        # deleted record (deleted_record) — a new line lost, its bytes kept in the original's segment
        # (docs/reviews/untrusted-seven.md)
        top = max(int(seq[0]), await _deleted_top(db, session))
        gen = await fetch_one(db, "SELECT COALESCE(MAX(generation), 0) FROM summaries WHERE session = ?", (session,))
        since = before.seq if before is not None else 0
        tools = dict(before.tools) if before is not None else {}
        tools.update({str(c): str(t) for c, t in await db.execute_fetchall(
            "SELECT call_id, tool FROM events WHERE session = ? AND seq > ? AND kind = 'tool_call' "
            "AND call_id IS NOT NULL AND tool IS NOT NULL", (session, since))})
        return Resume(fmt, session, text_name(self.source.name), offset, line, top, int(gen[0]), tools)

    async def poll(self) -> FollowStep:
        """Import the complete lines appended since the last look; refuse a rewritten file."""
        from inspector.domain.formats.tail import complete_lines

        assert self.resume is not None, "attach first"
        moved = self.store.file_said()  # the store moved or replaced under the follow: said at this look,
        if moved is not None:  # not at its next import (with nothing appended it went on into the old file)
            raise moved
        r = self.resume
        try:
            st = os.stat(self.source)
        except OSError as exc:
            raise BadInput(f"cannot read {self.source}: {exc.strerror}", code="unreadable") from None
        if st.st_ino != self.inode:
            raise _refuse_changed(self.source, st.st_size, r.offset, "another file was moved into its place")
        if st.st_size < r.offset:
            raise _refuse_changed(self.source, st.st_size, r.offset)
        if st.st_size == r.offset:
            return FollowStep(offset=r.offset)
        start = r.offset - len(self.sample)
        with open_regular(self.source) as fh:  # replaced by a FIFO since the last look: refused, not waited on
            fh.seek(start)
            chunk = fh.read(st.st_size - start)
        if chunk[:len(self.sample)] != self.sample:
            raise _refuse_changed(self.source, st.st_size, r.offset)
        if line_goes_on(chunk, len(self.sample)):
            raise cut_line_refusal(text_name(self.source.name), read_bytes(self.source), r.offset)
        new = chunk[len(self.sample):]
        tail = complete_lines(new)
        if not tail:
            return FollowStep(offset=r.offset, waiting=len(new))
        before = r.seq
        if await self._imported_elsewhere():
            return await self._rejoin(before)
        try:
            report = await self.import_tail(tail)
        except BadInput:
            if await self._imported_elsewhere():  # lost the race to another follow of the same file
                return await self._rejoin(before)
            raise
        return FollowStep(await self.events_after(before), r.offset, len(new) - len(tail), returned(report))

    async def _imported_elsewhere(self) -> bool:
        """Another process (a second ``follow`` of the same file into this store, an ``inspector FILE``)
        imported this file past where this follower stands. Two follows at once: the second to import
        the same appended lines was refused "material … differs from an earlier record with the same
        identity" (exit 3) and ended, its reviewer left to guess (storefault-eleven)."""
        assert self.resume is not None
        extent = await imported_extent(self.store, self.resume.file_name)
        return extent is not None and extent.end is not None and extent.end != self.resume.offset

    async def _rejoin(self, before: int) -> FollowStep:
        """Continue from where the store's last import of the file ended (the prefix checked again, as at
        attach); the events the other process imported are this step's."""
        await self.attach()
        assert self.resume is not None
        return FollowStep(await self.events_after(before), self.resume.offset)

    async def import_tail(self, tail: bytes) -> ImportReport:
        from inspector.domain.formats.tail import convert_tail, sif_tail
        from inspector.services import fact_proposals
        from inspector.services.importing import import_bytes
        from inspector.services.transcript_records import to_sif

        r = self.resume
        assert r is not None
        if r.fmt == "sif":
            raw, original = sif_tail(tail), None
        else:
            try:
                records = convert_tail(tail, r)
            except BadInput as error:
                if error.line is None:
                    raise
                raise BadInput(error.message.split(": ", 1)[-1], code=error.code,
                               line=error.line - 1 + r.line) from None
            records.append(segment_record(r, tail))
            raw, original = to_sif(records), tail
        mac = self.mac.copy()
        mac.update(tail)
        report = await import_bytes(self.store, raw, actor=self.actor, file_name=r.file_name, original=original,
                                    ledger_extra={"format": r.fmt, "bytes": [r.offset, r.offset + len(tail)]},
                                    file_digest="hmac-sha256:" + mac.hexdigest())
        self.mac = mac
        self.sample = (self.sample + tail)[-SAMPLE_BYTES:]
        self.resume = await self._resume(r.session, r.fmt, r.offset + len(tail), r.line + tail.count(b"\n"), r)
        if r.fmt != "sif":
            # As at import: the extractor proposes facts the new lines hold (keys not stored yet),
            # so a followed session's survival and drift figures judge by them too.
            # Only the appended events are read: the reading of the earlier ones is kept.
            if self.followed is None:
                self.followed = fact_proposals.Followed()
            await fact_proposals.write(self.store, r.session, actor=self.actor, followed=self.followed)
        return report

    async def events_after(self, seq: int) -> list[dict[str, Any]]:
        assert self.resume is not None
        spec = SPECS["event"]
        rows = await self.store.db.execute_fetchall(
            f"SELECT {spec.select_columns} FROM events WHERE session = ? AND seq > ? ORDER BY seq",
            (self.resume.session, seq))
        return [spec.to_record(row) for row in rows]


async def _deleted_top(db: Any, session: str) -> int:
    """The highest seq of the session's events a deletion removed (0: none), from the deletions'
    ledger entries (their ``removed_rows``), read on the ledger's (session, kind, seq) index."""
    top = 0
    for (payload,) in await db.execute_fetchall("SELECT payload FROM ledger WHERE session = ? AND kind = 'deletion' "
                                                "AND source = 'inspector'", (session,)):
        try:
            rows = json.loads(payload).get("removed_rows") or []
        except (TypeError, ValueError, AttributeError):
            continue  # verify names a payload that is not JSON
        for row in rows if isinstance(rows, list) else []:
            identity = row.get("identity") if isinstance(row, dict) and row.get("type") == "event" else None
            if isinstance(identity, list) and len(identity) == 2 and isinstance(identity[1], int):
                top = max(top, identity[1])
    return top


def segment_record(r: Resume, tail: bytes) -> dict[str, Any]:
    """The appended bytes as the next segment of the kept original (exported end to end)."""
    from inspector.domain.formats.builder import ORIGINAL_MEDIA_TYPE

    try:
        encoding, content = "utf-8", tail.decode("utf-8")
    except UnicodeDecodeError:
        encoding, content = "base64", base64.b64encode(tail).decode("ascii")
    return {"type": "material", "session": r.session, "id": r.segment,
            "source_version": f"{r.fmt} file, bytes {r.offset}-{r.offset + len(tail)}", "disclosure_scope": "task",
            "media_type": ORIGINAL_MEDIA_TYPE, "encoding": encoding, "content": content,
            "content_hash": content_hash(tail)}


@dataclass(slots=True)
class CatchUp:
    session: str | None
    fmt: str
    added_events: int
    offset: int
    returned: list[ProtocolProblem] = field(default_factory=list)  # as FollowStep's
    unread: list[ProtocolProblem] = field(default_factory=list)  # lines the import could not read
    held: str | None = None  # a half-written last line left for later, said (services/grown_file.py)
    start: int = 0  # where this import began in the file (0: a first import)
    added: dict[str, int] = field(default_factory=dict)  # records of an import of what was appended, by type
    # summary generations (compactions) this catch-up imported: follow --once said none (review-17)
    generations: int = 0


def prefix_unchanged(store: Store, extent: ImportedExtent, data: bytes) -> bool:
    """``data`` starts with the bytes the store's last import of the file read (its keyed digest)."""
    end = extent.end if extent.end is not None else len(data)
    return len(data) >= end and extent.file_digest == (
        "hmac-sha256:" + hmac.new(store.digest_key, data[:end], hashlib.sha256).hexdigest())


def _unchanged(store: Store, extent: ImportedExtent | None, data: bytes) -> bool:
    """The file is byte for byte what the store's last import of it read (its keyed digest)."""
    return extent is not None and extent.file_digest == (
        "hmac-sha256:" + hmac.new(store.digest_key, data, hashlib.sha256).hexdigest())


async def catch_up(source: Path, into: Path, *, actor: str, progress: ProgressFn | None = None) -> CatchUp:
    """Bring ``into`` up to date with ``source``: a first import, or an import of what was
    appended since; a rewritten file is refused and nothing changes. A half-written last line
    (no line end, not whole JSON) waits for its end, whoever asks: read now, its two halves
    became two unreadable lines and its record was lost (services/grown_file.py)."""
    data = read_bytes(source)
    extent = None
    if is_url(into):  # a server database: a store in it, or an empty one the import makes a store in
        try:
            async with await open_store(into) as store:
                extent = await imported_extent(store, text_name(source.name))
                if _unchanged(store, extent, data):
                    return CatchUp(extent.session, extent.fmt or "sif", 0, len(data), start=len(data))  # type: ignore[union-attr]
        except NotAStore:
            extent = None
    elif into.exists() and into.stat().st_size > 0:
        async with await open_store(into) as store:
            extent = await imported_extent(store, text_name(source.name))
            if _unchanged(store, extent, data):
                return CatchUp(extent.session, extent.fmt or "sif", 0, len(data), start=len(data))  # type: ignore[union-attr]
    from inspector.domain.formats.detect import detect
    from inspector.domain.formats.tail import APPENDABLE, complete_lines
    from inspector.services.importing import import_file

    cut = complete_lines
    if extent is None:
        try:
            fmt = detect(data, text_name(source.name))
        except BadInput as error:  # a cassette: the message list made from it, or that there is none
            raise cassette.explained(error, source) from None
        body = cut(data) if fmt in APPENDABLE else data
        if not body:
            return CatchUp(None, fmt, 0, 0, held=held_note(data, body))  # not one complete line yet
        report = await import_file(source, into, actor=actor, progress=progress, fmt=fmt, data=body,
                                   held_back=len(body) < len(data))
        return CatchUp(report.sessions[0] if report.sessions else None, fmt, report.added.get("event", 0), len(body),
                       returned(report), unread(report), held_note(data, body),
                       generations=report.added.get("summary", 0))
    async with await open_store(into) as store:
        fmt = extent.fmt or detect(data[:1 << 16], text_name(source.name))
        if fmt not in APPENDABLE:
            raise BadInput(f"{text_name(source.name)} changed since it was imported into {into.name}, and a {fmt} file is "
                           "rewritten as a whole rather than appended to, so nothing was merged; import it into a new "
                           "store to see its current state", code="source_rewritten")
        follower = Follower(store, source, actor=actor)
        await follower.attach(data)
        assert follower.resume is not None
        before, generation = follower.resume.seq, follower.resume.generation
        start = follower.resume.offset
        tail = cut(data[start:])
        report = await follower.import_tail(tail) if tail.strip() else None
        return CatchUp(extent.session, fmt, follower.resume.seq - before, follower.resume.offset,
                       returned(report) if report else [], unread(report) if report else [],
                       held_note(data, data[:start + len(tail)]), start, dict(report.added) if report else {},
                       generations=follower.resume.generation - generation)


def unread(report: ImportReport) -> list[ProtocolProblem]:
    """Lines of the file the import could not read (kept in the original, not read): `import`
    prints them; the app, importing the same file for `inspector FILE`, said nothing of them."""
    from inspector.domain.formats.tolerant import PROBLEM_CODES

    return [p for p in report.problems if isinstance(p, ProtocolProblem) and p.code in PROBLEM_CODES]


def returned(report: ImportReport) -> list[ProtocolProblem]:
    """The import's later copies of deleted values: said by whoever follows (CLI, app), never silent."""
    return [p for p in report.problems if isinstance(p, ProtocolProblem) and p.code == deletion_recurrence.CODE]
