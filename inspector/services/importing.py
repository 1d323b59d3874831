"""Import a sif/1 file into a store: all or nothing, idempotent, ledgered.

Everything is written in one transaction, so a bad line, a conflict or a killed process
leaves the store as it was (and a store created for the import is removed again);
running the same import again completes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from inspector.domain import facts_window, known_text
from inspector.domain.canonical import keyed_digest
from inspector.domain.deletion import inert_payload
from inspector.domain.errors import BadInput, InspectorError, NotAStore
from inspector.domain.file_name_text import text_name
from inspector.domain.formats.builder import BOM
from inspector.domain.formats.detect import convert, detect
from inspector.domain.protocol import ProtocolProblem, find_problems, thinking_is_off
from inspector.domain.sif import identity_digest, parse_chunk
from inspector.domain.stubs import StubProblem
from inspector.domain.trust import reviewer_name
from inspector.services import cassette, deletion_recurrence
from inspector.services.changed_source import changed_source
from inspector.services.discovery_copies import last_line_cut
from inspector.services.gc_pause import pauses_collector
from inspector.services.import_stream import parsed_chunks, parsed_records
from inspector.services.long_lines import DecodedOnce
from inspector.services.reading import read_import_file
from inspector.services.record_writer import RecordWriter
from inspector.services.stub_checks import session_stub_problems
from inspector.services.transcript_records import (
    all_proposed_facts,
    proposed_facts,
    settle_owner,
    settle_title,
    to_sif,
)
from inspector.services.unchanged_import import unchanged_import
from inspector.store import bindings, faults, fresh, ledger, session_rows
from inspector.store.connection import Store, open_store
from inspector.store.jsoncodec import fast_loads
from inspector.store.location import StoreTarget, is_url, store_target
from inspector.store.tables import WRITE_ORDER

ProgressFn = Callable[[str, int, int], None]


@dataclass(slots=True)
class ImportReport:
    store: str
    sessions: list[str] = field(default_factory=list)
    added: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    # Not in the repr: Python 3.11's asyncio.run reprs the finished task (and so its result) twice
    # while restoring its SIGINT handler, which for 25k problems cost 80 ms after every import.
    problems: list[ProtocolProblem | StubProblem] = field(default_factory=list, repr=False)
    created_store: bool = False
    format: str = "sif"
    unchanged_since: int | None = None  # the ledger entry that imported these same bytes whole

    def as_dict(self) -> dict[str, Any]:
        return {
            "store": self.store,
            "created_store": self.created_store,
            "format": self.format,
            **({"unchanged_since": self.unchanged_since} if self.unchanged_since is not None else {}),
            "sessions": self.sessions,
            "events": self.added.get("event", 0),
            "materials": self.added.get("material", 0),
            "added": self.added,
            "skipped": self.skipped,
            "problems": [{"code": p.code, "line": p.line, "message": p.message, "session": p.session,
                          "seq": p.seq, **({"stub": p.stub} if isinstance(p, StubProblem) else {})}
                         for p in self.problems],
        }


def read_bytes(path: Path) -> bytes:
    """The file to import, through the one guarded reader (regular files only, bounded)."""
    return read_import_file(path)


async def _stored_sessions(db: aiosqlite.Connection) -> dict[str, tuple[int, int]]:
    return await session_rows.versions(db)


@pauses_collector
async def import_bytes(store: Store, raw: bytes | Sequence[dict[str, Any]], *, actor: str, file_name: str,
                       progress: ProgressFn | None = None, original: bytes | None = None,
                       ledger_extra: dict[str, Any] | None = None, file_digest: str | None = None,
                       tail: Awaitable[Sequence[dict[str, Any]]] | None = None) -> ImportReport:
    """Import one sif/1 file's bytes in one transaction (the caller's store stays open).

    ``raw`` may instead be a converted transcript's records: they are imported exactly as the
    bytes :func:`to_sif` writes for them would be (lines numbered alike), without writing and
    re-reading them (``original`` is then the transcript's bytes); ``tail``, records that
    follow them, still being computed (a new store's proposed facts).
    Chunks are parsed (in worker processes for large files) while earlier ones are
    written; any bad line or conflict rolls the whole transaction back.
    """
    actor = reviewer_name(actor)
    report = ImportReport(store=str(store.path))
    if progress is not None:  # said while it waits: another reviewer's write may hold the store up to 10 s
        progress("waiting for the store (another write may hold it)", 0, 0)
    async with store.transaction() as db:
        if progress is not None:
            progress("importing", 0, 0)
        await db.execute("PRAGMA defer_foreign_keys = ON")  # a session may be declared after its records
        writer = RecordWriter(db, await _stored_sessions(db))
        before = await deletion_recurrence.top_event(db)
        # aclosing: a refusal while writing stops the parsing thread before the rollback returns
        source = parsed_chunks(raw, parse_ahead=True) if isinstance(raw, bytes) else parsed_records(raw, tail)
        async with contextlib.aclosing(source) as chunks:
            async for records, done, total in chunks:
                await writer.write(records)
                if progress is not None:
                    progress("importing", done, total)
        writer.check_sessions()
        # a value a carried-out deletion removed, written again by the transcript: named, never silent
        report.problems += await deletion_recurrence.later_copies(db, store.digest_key, after_event=before)
        # The search indexes are not built here: a search (or the app, after its first paint)
        # indexes the new events in short transactions of its own (inspector/store/catch_up.py).
        entries = await _sif_ledger_records(db, writer, lambda text: keyed_digest(store.digest_key, text.encode(
            "utf-8", errors="surrogatepass")))
        for session in writer.first_use:
            entries += await _settle_session(db, writer, session, actor=actor, file_name=file_name,
                                             file_digest=file_digest or keyed_digest(store.digest_key, _file_bytes(
                                                 original, raw)),
                                             digest_key=store.digest_key, extra=ledger_extra)
        # an empty store before: every row of each session is one the writer wrote, digests in hand
        await ledger.append(db, entries, known=None if writer.stored else {
            (session, type_): writer.written[(session, type_)] for session in writer.first_use for type_ in WRITE_ORDER})
    for (_s, t), n in writer.added.items():
        report.added[t] = report.added.get(t, 0) + n
    for (_s, t), n in writer.skipped.items():
        report.skipped[t] = report.skipped.get(t, 0) + n
    report.sessions = list(writer.first_use)
    for session, shapes in writer.shapes.items():
        declared = writer.declared.get(session) or {}
        adapter = declared.get("adapter") or await _adapter(db, session)
        report.problems += find_problems(session, adapter, shapes, thinking_off=thinking_is_off(declared))
    for session, stubs in writer.stub_lines.items():
        report.problems += await session_stub_problems(db, session, only=stubs)
    report.problems += writer.trust_problems
    return report


def _file_bytes(original: bytes | None, raw: bytes | Sequence[dict[str, Any]]) -> bytes:
    """The bytes the person imported: the transcript's own, else the sif/1 file's."""
    if original:
        return original
    return raw if isinstance(raw, bytes) else to_sif(list(raw))


async def _adapter(db: aiosqlite.Connection, session: str) -> str:
    row = await session_rows.get(db, session)
    return row.adapter if row else "generic"


async def _settle_session(db: aiosqlite.Connection, writer: RecordWriter, session: str, *, actor: str,
                          file_name: str, file_digest: str, digest_key: bytes,
                          extra: dict[str, Any] | None = None) -> list[ledger.NewEntry]:
    """Set the session's derived versions and record what this import added to it."""
    goal, version = writer.stored.get(session, (0, 0))
    declared = writer.declared.get(session)
    new_goal = max(goal, int(declared["goal_revision"]) if declared else 0)
    new_version = max(version, writer.versions[session])
    if (new_goal, new_version) != (goal, version):
        await session_rows.set_versions(db, session, context_version=new_version, goal_revision=new_goal)
    counts = {t: n for (s, t), n in writer.added.items() if s == session}
    if not counts:
        return []
    return [ledger.NewEntry(session, "import", actor, {
        "file_name": file_name, "file_digest": file_digest, "added": counts,
        "skipped": {t: n for (s, t), n in writer.skipped.items() if s == session},
        "context_version": new_version, "goal_revision": new_goal, **(extra or {}),
        "initial_status": writer.initial_status.get(session, {}),
        **({"unverified_acts": writer.unverified[session]} if writer.unverified.get(session) else {}),
        "materials": {mid: bindings.bound_digest(digest_key, b) for mid, b in writer.bindings.get(session, {}).items()},
    })]


async def _sif_ledger_records(db: aiosqlite.Connection, writer: RecordWriter,
                              digest: Callable[[str], str]) -> list[ledger.NewEntry]:
    """Acts a harness recorded (sif `ledger` lines) join the chain once, in file order.

    The chain can never be edited, so a secret in it could never be deleted: an imported
    payload keeps ids, codes, numbers and times, and every other string only as a keyed
    digest (domain/deletion.py ``inert_payload``). The record's identity is taken after
    that, so exporting and re-importing adds nothing.
    """
    entries: list[ledger.NewEntry] = []
    seen: set[tuple[str, str]] = set()
    for rec in writer.ledger_records:
        r = {**rec.record, "payload": inert_payload(rec.record.get("payload", {}), digest)}
        r = {k: (inert_payload(v, digest) if k not in {"type", "session", "kind", "actor", "at", "payload"} else v)
             for k, v in r.items()}
        record_digest = identity_digest("ledger", r)
        if (r["session"], record_digest) in seen:
            continue
        seen.add((r["session"], record_digest))
        async with db.execute("SELECT 1 FROM ledger WHERE session = ? AND record_digest = ?",
                              (r["session"], record_digest)) as cur:
            if await cur.fetchone():
                writer.skipped[(r["session"], "ledger")] += 1
                continue
        extra = {k: val for k, val in r.items() if k not in {"type", "session", "kind", "actor", "at", "payload"}}
        payload = dict(r.get("payload", {}))
        if extra:
            payload = {**payload, "_sif_extra": extra}
        entries.append(ledger.NewEntry(r["session"], r["kind"], r["actor"], payload, at=r.get("at"),
                                       source="sif", record_digest=record_digest))
        writer.added[(r["session"], "ledger")] += 1
    return entries


_STORE_FILES = ("", "-wal", "-shm", "-journal")


def _present(path: Path) -> frozenset[str]:
    return frozenset(suffix for suffix in _STORE_FILES if os.path.lexists(f"{path}{suffix}"))


def _remove_store_files(path: Path, had: frozenset[str]) -> None:
    """Remove the store files an import made; only regular files (a FIFO or symbolic link at the
    store's path is refused before anything is made, and is never removed), and none that were
    there before it (``had``): a ``-wal`` left by a killed program whose store was moved away holds
    that store's last acts, and a refused import removed it (storefault-nine, gap 3)."""
    for suffix in _STORE_FILES:
        if suffix in had:
            continue
        with contextlib.suppress(FileNotFoundError):
            name = f"{path}{suffix}"
            # on a read-only medium, removing what is not there fails too
            if os.path.lexists(name) and not os.path.islink(name) and os.path.isfile(name):
                os.remove(name)


@pauses_collector
async def import_file(source: Path, into: StoreTarget | str, *, actor: str, progress: ProgressFn | None = None,
                      fmt: str | None = None, data: bytes | None = None, fill_new: bool = True,
                      held_back: bool = False) -> ImportReport:
    """Import a sif/1 file or any supported transcript (``fmt`` None: detected).

    ``data``: the bytes to import instead of reading the file (a growing transcript's
    complete lines). The ledger entry records the format and the byte extent imported, so
    a later import of what was appended can continue from there (services.following).
    A store created for the import is removed again if the import fails. ``fill_new``: a new
    store is filled under a hidden name and published whole (inspector/store/fresh.py);
    False makes it at its name and fills it there, in WAL mode, as an existing one. ``held_back``:
    ``data`` leaves out the file's half-written last line (services/grown_file.py), which a refusal says.
    """
    actor = reviewer_name(actor)
    into = store_target(into)
    if not is_url(into) and (problem := faults.path_problem(into)) is not None:
        raise problem  # a folder, FIFO or link leading nowhere: refused before anything is read or made
    if progress is not None:
        progress("reading", 0, 0)
    raw = data if data is not None else read_bytes(source)
    loads = DecodedOnce(fast_loads)  # a long first line decoded once for detection and conversion
    try:
        fmt = fmt or detect(raw, text_name(source.name), loads)
    except BadInput as error:  # a cassette: the message list made from it, or that there is none
        raise cassette.explained(error, source) from None
    origin_lines: dict[tuple[str, int], int] = {}
    line_problems: list[ProtocolProblem] = []  # lines of a transcript that were not read, or are odd
    original = raw
    if fmt == "sif" and raw[:3] == BOM:  # a byte order mark (Notepad's UTF-8) is read as white space, as
        raw = b"   " + raw[3:]  # every other format does; the file's own bytes are what its digest names
    if fmt == "sif":
        end = raw.find(b"\n")  # refuse a non-sif file before any store exists (its first line only)
        parse_chunk([raw if end < 0 else raw[:end]], 1, with_header=True)
    on_server = is_url(into)
    if data is None and (on_server or (into.exists() and into.stat().st_size > 0)):
        again = await _already_imported(into, original, fmt)
        if again is not None:
            return again
    records: list[dict[str, Any]] = []
    made: fresh.Made | None = None
    # A new store is made (on a thread, while the transcript converts) and filled under a
    # hidden name, then published whole in WAL mode (inspector/store/fresh.py says why that is safe).
    filling = fresh.start_filling(into, original, fmt != "sif") if fill_new and not on_server else None
    try:
        if fmt != "sif":
            if progress is not None:
                progress(f"converting the {fmt} transcript", 0, 0)
            records = convert(raw, text_name(source.name), fmt, loads, original_text=False)  # its bytes, not its text
            loads.forget()
            origin_lines = {(r["session"], r["seq"]): r["origin"]["line"] for r in records
                            if r["type"] == "event" and "line" in r.get("origin", {})}
            line_problems = [ProtocolProblem(r["problem"], r["session"], r["seq"],
                                             r["content"].removeprefix(f"[{r['problem']}] "))
                             for r in records if r["type"] == "event" and r.get("problem")]
            line_problems += facts_window.read_in_part(records)  # a huge event's facts read in its head and tail
        if filling is not None:
            made = await filling[1]
            known_text.take_hash(original)  # its hash, should the converter have finished first: not kept
            store = await fresh.open_filling(filling[0])
    except BaseException:
        if filling is not None:
            await _finish_quietly(filling[1])
            known_text.take_hash(original)
            fresh.remove(filling[0])
        raise
    created = filling is not None or (not on_server and not into.exists())  # an empty file is refused, never taken
    had = frozenset() if on_server else _present(into)  # never removed by a failed import: not the import's
    if filling is None:
        try:
            store = await open_store(into, create=True)
        except InspectorError:
            if created:
                _remove_store_files(into, had)
            raise
    created = created or bool(getattr(store, "created", False))  # a server database the import made a store in
    tail: asyncio.Future[list[dict[str, Any]]] | None = None
    try:
        if fmt != "sif":
            await settle_owner(store, records, actor)
            await settle_title(store, records)
            if filling is not None:  # a new store holds no facts: they are proposed while the records are written
                tail = asyncio.get_running_loop().run_in_executor(None, all_proposed_facts, records)
            else:
                records += await proposed_facts(store, records)
        report = await import_bytes(store, records if fmt != "sif" else raw, actor=actor, file_name=text_name(source.name),
                                    progress=progress, original=original,
                                    ledger_extra={"format": fmt, "bytes": [0, len(original)]}, tail=tail,
                                    file_digest=made.file_digest if made is not None else None)
        if made is not None:
            await fresh.publish(store, into, made.deferred)  # type: ignore[arg-type]
    except fresh.NotPublished as not_published:  # the store's name was taken meanwhile, or no hard links here:
        if tail is not None:  # import into it (or at that name) the ordinary way
            await _finish_quietly(tail)
        return await import_file(source, into, actor=actor, progress=progress, fmt=fmt, data=data,
                                 fill_new=not_published.taken, held_back=held_back)
    except BaseException as error:
        said = (await changed_source(store, error, text_name(source.name), fmt, cut=held_back or last_line_cut(original))
                if isinstance(error, BadInput) else None)
        await store.close()
        if tail is not None:
            await _finish_quietly(tail)
        if filling is not None:
            fresh.remove(filling[0])
        elif created:
            _remove_store_files(into, had)
        if said is not None:
            raise said from None
        raise
    await store.close()
    report.store = str(into)
    report.created_store = created
    report.format = fmt
    if fmt != "sif":  # point at the line of the file the person has (none for formats without lines)
        report.problems = sorted(report.problems + line_problems, key=lambda p: (p.session, p.seq, p.code))
        for problem in report.problems:
            problem.line = origin_lines.get((problem.session, problem.seq))
    return report


async def _finish_quietly(making: asyncio.Future[Any]) -> None:
    """Let a helper thread end before its work is thrown away (its own failure no longer matters)."""
    with contextlib.suppress(BaseException):
        await asyncio.shield(making)


async def _already_imported(into: StoreTarget, original: bytes, fmt: str) -> ImportReport | None:
    """The report of re-importing bytes imported whole before (services/unchanged_import.py)."""
    try:
        # a look writes nothing: an older store is upgraded by the import that writes, once its file was
        # read — a file refused later (a wrong --from) left the store upgraded (review-18)
        opened = await open_store(into, upgrade=False)
    except NotAStore:
        if is_url(into):
            return None  # an empty database: the import creates the store
        raise
    except InspectorError as error:
        if error.code == "format_upgrade_needed":
            return None  # the full path upgrades it (and says so), after the file is read
        raise
    async with opened as store:
        if store.read_only:
            return None  # the full path refuses it (read_only), as any import into it
        found = await unchanged_import(store, original, fmt)
    if found is None:
        return None
    return ImportReport(store=str(into), sessions=found[2], skipped=found[1], format=fmt, unchanged_since=found[0])
