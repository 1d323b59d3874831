"""Search latency at size, beside the bare FTS query in the same run.

    python -m bench.search_speed [--events 1000000] [--keep DIR]

Builds (or reuses, with --keep) a one-session store of synthetic events whose last event
alone holds a rare word, a rare character and a rare pair, then times the app's search
service (medians of 5) for: a word in no event, a word only in the last event, common
words, one and two characters (common and rare), each against the bare index query for the
same text in the same run: the trigram ``MATCH`` (three characters or more) or the gram
``MATCH`` (one or two), joined to its events and stopped at the limit, as the service asks it,
on a plain ``sqlite3`` connection with no event loop between. The issue's target: every query
under 50 ms at 1M events, and at most 100x its bare query.

Since store format 5 every search also asks the call-input index (a quarter of the events are
tool calls whose input is their number): the last rows time a number only one call's input holds
(its bare query is the call index's ``MATCH``) and one in no call; the event queries' bare
baseline stays the event index's, so their ratio includes the second index's lookup.

Since store format 6 every search also asks the thinking index (``reasoning_fts``/``reasoning_grams``):
the last event carries a thinking text whose word ``thoughtquark`` is in nothing else, timed as
the last row (its bare query is the thinking index's ``MATCH``); the other rows' ratio includes
that third lookup.

A bare query that finds nothing answers in ~10 microseconds, so its median is taken over
many runs (``--repeat``); a single fixed baseline (one word's lookup) made the ratio of a
common word, whose bare query reads 51 events, look like the service's overhead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bench.make_data import write_events_file
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.store.connection import open_store

LAST = "the rare zebracorn word, Ω sign and ぽぬ pair"
THOUGHT = "a thoughtquark idea, thought once"  # the last event's thinking (store format 6)
QUERIES = [("absent word", "quixotically"), ("word only in the last event", "zebracorn"),
           ("common word (3+ chars)", "result"), ("common CJK (3 chars)", "订单导"),
           ("1 char, common", "e"), ("1 char, only in the last event", "Ω"),
           ("2 chars, common", "订单"), ("2 chars, only in the last event", "ぽぬ"),
           ("2 chars, absent", "ゑゐ")]


async def build(path: Path, events: int) -> float:
    src = write_events_file(path.with_suffix(".jsonl"), events)
    with src.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "event", "session": "s-bench", "seq": events + 1, "kind": "user_message",
                             "content": LAST, "trust": "user", "at": "2025-05-01T00:00:00Z",
                             "reasoning_content": THOUGHT},
                            ensure_ascii=False) + "\n")
    start = time.perf_counter()
    await import_file(src, path, actor="bench")
    src.unlink()
    return time.perf_counter() - start


def _phrase(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def bare_query(path: Path, query: str, repeat: int, side: str = "") -> float:
    """Median seconds of the bare index query for ``query`` (what the service's first
    statement asks; ``side``: the call-input or thinking index's, ``calls_fts`` / ``reasoning_fts``),
    on a plain connection with a warm page cache."""
    con = sqlite3.connect(path)
    if side:
        sql = (f"SELECT {side}.rowid, e.seq, e.tool, {side}.text FROM {side} CROSS JOIN events e "
               f"ON e.event_id = {side}.rowid WHERE {side} MATCH ? AND e.session = ? ORDER BY {side}.rowid "
               "LIMIT 51")
        args: tuple[str, ...] = (_phrase(query), "s-bench")
    elif len(query) >= 3:
        sql = ("SELECT e.seq, e.content FROM events_fts CROSS JOIN events e ON e.event_id = events_fts.rowid "
               "WHERE events_fts MATCH ? AND e.session = ? ORDER BY events_fts.rowid LIMIT 51")
        args = (_phrase(query), "s-bench")
    else:
        sql = ("SELECT events_grams.rowid, e.seq, e.content FROM events_grams "
               "CROSS JOIN events e ON e.event_id = events_grams.rowid "
               "WHERE events_grams MATCH ? AND e.session = ? ORDER BY events_grams.rowid LIMIT 51")
        args = (_phrase(query), "s-bench")
    con.execute(sql, args).fetchall()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        con.execute(sql, args).fetchall()
        times.append(time.perf_counter() - start)
    con.close()
    return statistics.median(times)


def call_queries(events: int) -> list[tuple[str, str]]:
    """A number only the last call's input holds (calls are the seqs 1 mod 4), and one no call holds."""
    last_call = max(s for s in range(max(1, events - 3), events + 1) if s % 4 == 1)
    return [("call input, one call", str(last_call)),
            ("call input, absent number", "7777777"), ("thinking, one event", "thoughtquark")]


async def timed(path: Path, repeat: int, events: int) -> list[tuple[str, str, float, int, str]]:
    out = []
    async with await open_store(path) as store:
        await search(store, "s-bench", "warm")  # opens the reader and warms the page cache
        for label, query in [*QUERIES, *call_queries(events)]:
            times, result = [], None
            for _ in range(repeat):
                start = time.perf_counter()
                result = await search(store, "s-bench", query)
                times.append(time.perf_counter() - start)
            assert result is not None
            out.append((label, query, statistics.median(times), len(result.hits), result.method))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--keep", type=Path, help="folder to keep (and reuse) the built store in")
    parser.add_argument("--repeat", type=int, default=25, help="timed runs per query (medians)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"search-{args.events}.db"
        if not path.exists():
            print(f"built {args.events:,} events in {asyncio.run(build(path, args.events)):.1f} s")
        rows = asyncio.run(timed(path, args.repeat, args.events))
        print("| query | text | search, median ms | hits | index | bare query, median ms | × bare |")
        print("|---|---|---:|---:|---|---:|---:|")
        for label, query, seconds, hits, method in rows:
            side = "calls_fts" if label.startswith("call input") else "reasoning_fts" if label.startswith("thinking") \
                else ""
            bare = bare_query(path, query, args.repeat * 4, side)
            print(f"| {label} | `{query}` | {seconds * 1000:.2f} | {hits} | {method} | {bare * 1000:.3f} | "
                  f"{seconds / bare:.0f}× |")


if __name__ == "__main__":
    main()
