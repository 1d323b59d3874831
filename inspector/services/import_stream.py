"""Reading a sif/1 file as a stream of parsed chunks.

Large files are parsed by worker processes a few chunks ahead of the writer, so parsing
(pure Python, one core) and writing (SQLite, the other core) overlap; memory holds only
the chunks in flight, never the whole parsed file.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from inspector.domain.known_text import as_text_record
from inspector.domain.sif import SifRecord, decoded_lines, parse_chunk, parse_record
from inspector.store.jsoncodec import (
    exact_as_is,
    fast_canonical_bytes,
    fast_compact_bytes,
    fast_loads,
    float_free_canonical_bytes,
    lines_with_float_marks,
)
from inspector.store.tables import SPECS

CHUNK_LINES = 20_000
FIRST_CHUNK_LINES = 4_000
PARALLEL_MIN_BYTES = 8 << 20  # below this, starting worker processes costs more than it saves
WORKERS = 2
# Measured (bench/import_processes.py, 2 cores, 200k events): one process 13.9 s wall, 8.7 s
# CPU, 221 MB; the pool 19.1 s, 13.1 s, 337 MB -- the writer is the bottleneck and the
# workers only compete with it. So the pool runs only where there are cores to spare, or
# when INSPECTOR_IMPORT_WORKERS=1 asks for it (=0 never).
MIN_CORES_FOR_WORKERS = 4


def use_workers() -> bool:
    asked = os.environ.get("INSPECTOR_IMPORT_WORKERS")
    if asked in ("0", "1"):
        return asked == "1"
    return (os.cpu_count() or 1) >= MIN_CORES_FOR_WORKERS
IN_FLIGHT = 4
PARENT_POLL_S = 0.25
ROW_READY = frozenset({"event", "tool_def", "stub", "state", "action", "summary", "candidate", "handoff",
                       "deletion_request"})

Chunk = tuple[list[bytes], int, bool]


def parse_for_writer(chunk: Chunk) -> list[SifRecord]:
    """Parse one chunk and build its table rows (runs on the parsing thread, or in a worker
    process for large files)."""
    lines, first_line, with_header = chunk
    marked = lines_with_float_marks(lines)
    records: list[SifRecord] = []
    for index, number, obj in decoded_lines(lines, first_line, with_header=with_header, loads=fast_loads):
        free = index not in marked  # then nothing decoded from the line, nor the record made of it, is a float
        rec = parse_record(obj, number, float_free_canonical_bytes if free else fast_canonical_bytes)
        if rec.type in ROW_READY:
            rec.row = SPECS[rec.type].to_row(rec.record, rec.digest, float_free=free)
        records.append(rec)
    return records


def _with_rows(records: list[SifRecord]) -> list[SifRecord]:
    for rec in records:
        if rec.type in ROW_READY:
            rec.row = SPECS[rec.type].to_row(rec.record, rec.digest)
    return records


Converted = tuple[Sequence[dict[str, Any]], int, bool]  # records, the sif line number of the first, (unused)


def parse_converted(chunk: Converted) -> list[SifRecord]:
    """Parse converted records as if written as sif/1 lines (``transcript_records.to_sif``) and read back
    by :func:`parse_for_writer` — the same records, digests, rows and refusals (naming the same
    line) — without writing and re-reading them where the round trip provably changes nothing
    (store/jsoncodec.py ``exact_as_is``); any other record takes the written-and-read path."""
    items, first_line, _ = chunk
    out: list[SifRecord] = []
    for offset, item in enumerate(items):
        found = exact_as_is(item)
        if found is None:  # written as its sif/1 line (an original's text decoded for it) and read back
            out += _with_rows(parse_chunk([fast_compact_bytes(as_text_record(item))], first_line + offset, with_header=False,
                                          loads=fast_loads, encode=fast_canonical_bytes))
            continue
        value, free = found  # a record made of a float-free value holds no float either
        rec = parse_record(value, first_line + offset, float_free_canonical_bytes if free else fast_canonical_bytes)
        if rec.type in ROW_READY:
            rec.row = SPECS[rec.type].to_row(rec.record, rec.digest, float_free=free)
        out.append(rec)
    return out


def watch_parent(parent: int) -> None:
    """Runs in each worker: exit as soon as the importing process is gone.

    A worker blocks reading its task queue, and holds that queue's write end itself, so a
    parent killed with SIGKILL would leave it waiting forever. Once the parent dies, the
    worker is re-parented and ``getppid`` changes; a daemon thread notices within
    ``PARENT_POLL_S`` and ends the worker (no platform-specific parent-death signal needed).
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def split(raw: bytes, chunk_lines: int | None = None) -> list[Chunk]:
    """The file's lines in chunks of ``CHUNK_LINES`` (read when called), the first one smaller:
    nothing overlaps the first chunk's parse (the writer waits for it), so a small one starts
    the writes sooner (PostgreSQL, 100k events: ~0.3 s the writer waited, docs/benchmarks.md)."""
    size = chunk_lines or CHUNK_LINES
    lines = raw.split(b"\n")
    starts = [0, *range(min(FIRST_CHUNK_LINES, size), len(lines), size)]
    return [(lines[a:b], a + 1, a == 0) for a, b in zip(starts, [*starts[1:], len(lines)], strict=True)]


async def _parsed_ahead(chunks: Sequence[Chunk | Converted],
                        parse: Callable[[Any], list[SifRecord]] = parse_for_writer,
                        ) -> AsyncIterator[tuple[list[SifRecord], int]]:
    """In this process: each chunk is parsed on a thread of its own while the caller writes
    the one before. The writes wait without the interpreter lock — on SQLite one JSON
    statement per batch (store/bulk.py), on PostgreSQL the server process — so with a second
    core parsing and writing overlap; on one core it costs only the thread's hand-overs.
    Chunks come back in file order, and a bad line's refusal comes when its chunk is asked
    for, as without the thread."""
    if len(chunks) < 2:
        done = 0
        for chunk in chunks:
            done += len(chunk[0])
            yield parse(chunk), done
        return
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-parse") as parser:
        ahead = loop.run_in_executor(parser, parse, chunks[0])
        done = 0
        try:
            for i, chunk in enumerate(chunks):
                records = await ahead
                ahead = loop.run_in_executor(parser, parse, chunks[i + 1]) if i + 1 < len(chunks) else None
                done += len(chunk[0])
                yield records, done
        finally:
            if ahead is not None and not ahead.done():
                ahead.cancel()  # not started yet: dropped; started: runs out, its result unread
            elif ahead is not None and not ahead.cancelled():
                ahead.exception()  # read, so a refusal nobody waits for is not logged as unretrieved


CONVERTED_FIRST_CHUNK = 500  # converted records: the first chunk small, each next one twice as large


def converted_bounds(count: int) -> list[tuple[int, int]]:
    """Chunks of converted records: 500, 1,000, 2,000… up to ``CHUNK_LINES``. A small first
    chunk starts SQLite's writes early, so the next chunks are parsed while it writes (a 4 MB
    transcript is ~1,500 records: one chunk gave that no overlap); growing sizes keep a huge
    transcript to few chunks."""
    bounds: list[tuple[int, int]] = []
    start, size = 0, min(CONVERTED_FIRST_CHUNK, CHUNK_LINES)
    while start < count:
        bounds.append((start, min(count, start + size)))
        start, size = start + size, min(size * 2, CHUNK_LINES)
    return bounds


async def parsed_records(records: Sequence[dict[str, Any]], tail: Awaitable[Sequence[dict[str, Any]]] | None = None,
                         ) -> AsyncIterator[tuple[list[SifRecord], int, int]]:
    """Converted records in file order, as :func:`parsed_chunks` yields the sif/1 lines
    ``transcript_records.to_sif`` would write for them (line 1 the header, record i on line i + 2;
    progress counted in those lines), each chunk parsed on a thread while the one before is
    written. ``tail``: more records that follow them (an import's proposed facts), computed
    meanwhile on a thread of the caller's; they come last, numbered on from the records."""
    chunks = [(records[a:b], a + 2, False) for a, b in converted_bounds(len(records))]
    total = len(records) + 2
    async for parsed, done in _parsed_ahead(chunks, parse_converted):
        yield parsed, 1 + done + (1 if done == len(records) and tail is None else 0), total
    if tail is not None:
        more = await tail
        total += len(more)
        yield parse_converted((more, len(records) + 2, False)), total, total


async def parsed_chunks(raw: bytes, *, parse_ahead: bool = False) -> AsyncIterator[tuple[list[SifRecord], int, int]]:
    """Yield (records, lines done, total lines) in file order. ``parse_ahead``: parse the next
    chunk on a thread while the caller writes this one (see :func:`_parsed_ahead`)."""
    chunks = split(raw)
    total = sum(len(c[0]) for c in chunks)
    done = 0
    if len(raw) < PARALLEL_MIN_BYTES or len(chunks) < 3 or not use_workers():
        if len(chunks) < 3 or not parse_ahead:
            for chunk in chunks:
                done += len(chunk[0])
                yield parse_for_writer(chunk), done, total
            return
        async for records, done in _parsed_ahead(chunks):
            yield records, done, total
        return
    # spawn, not fork: the writer's SQLite thread must not be copied mid-call into a child.
    with ProcessPoolExecutor(max_workers=WORKERS, mp_context=multiprocessing.get_context("spawn"),
                             initializer=watch_parent, initargs=(os.getpid(),)) as pool:
        pending: deque[tuple[Future[list[SifRecord]], Chunk]] = deque()
        upcoming = iter(chunks)
        broken = False
        try:
            for chunk in upcoming:
                pending.append((pool.submit(parse_for_writer, chunk), chunk))
                if len(pending) >= IN_FLIGHT:
                    break
            while pending:
                future, chunk = pending.popleft()
                try:
                    records = parse_for_writer(chunk) if broken else await asyncio.wrap_future(future)
                except BrokenProcessPool:
                    broken = True  # workers could not start here (e.g. no importable __main__): parse inline
                    records = parse_for_writer(chunk)
                following = next(upcoming, None)
                if following is not None:
                    pending.append((future if broken else pool.submit(parse_for_writer, following), following))
                done += len(chunk[0])
                yield records, done, total
        finally:
            for future, _ in pending:
                future.cancel()
