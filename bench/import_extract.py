"""What fact extraction and survival add to importing a 4 MB Claude Code transcript.

    python -m bench.import_extract [--mb 4] [--runs 3]

The transcript is real-ish: the lines of the Claude Code files in
../shared/real_sessions/claude-code/ (one-record-per-line ones), repeated until the file
reaches the size, every copy with fresh uuids, tool-use ids and message ids and all of it
under one fresh sessionId — a long session with several compactions. Each run imports it
into a new store twice, in alternating order: with the extractor (what ``inspector import`` does)
and with it switched off (the extraction step replaced by one that proposes nothing), and
then computes the survival report of the compaction summary and of every generation.
Target (issue #11): extraction plus survival adds at most 25% to the import time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench.shared_dir import real_sessions
from inspector.domain.facts import extract_from_records
from inspector.domain.formats.detect import convert
from inspector.services import importing
from inspector.services.survival import survival_all, survival_report
from inspector.store.connection import open_store

SOURCES = real_sessions() / "claude-code"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
IDS = re.compile(r"\b(toolu_|msg_|req_)([A-Za-z0-9]+)")


def build(path: Path, size: int, *, distinct: bool = False) -> tuple[Path, str]:
    """Repeat the real files' lines with fresh ids until ``size`` bytes; one session.
    ``distinct`` also gives every copy its own paths (``/Users/…`` → ``/Users/copyN/…``),
    so the extractor proposes new records per copy instead of merging repeats."""
    files = sorted(p for p in SOURCES.glob("*.jsonl") if "two_records" not in p.name)
    session = str(uuid.uuid4())
    written = copy = 0
    with path.open("w", encoding="utf-8") as out:
        while written < size:
            for src in files:
                lines = src.read_text(encoding="utf-8").splitlines()
                olds = {json.loads(line).get("sessionId") for line in lines if line.strip()} - {None}
                fresh: dict[str, str] = {old: session for old in olds}
                for line in lines:
                    if not line.strip():
                        continue
                    line = UUID.sub(lambda m: fresh.setdefault(m.group(0), str(uuid.uuid4())), line)
                    line = IDS.sub(lambda m: f"{m.group(1)}{m.group(2)}c{copy}", line)
                    if distinct:
                        line = line.replace("/Users/", f"/Users/copy{copy}/").replace("/home/", f"/home/copy{copy}/")
                    out.write(line + "\n")
                    written += len(line.encode("utf-8")) + 1
                copy += 1
                if written >= size:
                    break
    return path, session


def _no_facts(records: Any) -> dict[str, list[Any]]:
    return {}


async def import_once(src: Path, store: Path, *, extract: bool) -> float:
    for p in store.parent.glob(store.name + "*"):
        p.unlink()
    original = importing.extract_from_records
    importing.extract_from_records = original if extract else _no_facts  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        await importing.import_file(src, store, actor="bench")
        return time.perf_counter() - start
    finally:
        importing.extract_from_records = original  # type: ignore[assignment]


async def survival_times(store: Path) -> tuple[float, float, str, int]:
    async with await open_store(store) as opened:
        sid = (await opened.db.execute_fetchall("SELECT id FROM sessions LIMIT 1"))[0][0]
        start = time.perf_counter()
        report = await survival_report(opened, sid)
        latest = time.perf_counter() - start
        start = time.perf_counter()
        every = await survival_all(opened, sid)
        all_s = time.perf_counter() - start
        facts = (await opened.db.execute_fetchall(
            "SELECT COUNT(*) FROM state_records WHERE session = ? AND writer = 'extractor'", (sid,)))[0][0]
    return latest, all_s, f"{report.headline()} ({len(every)} generations)", int(facts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--distinct", action="store_true", help="every copy with its own paths (more facts)")
    args = parser.parse_args()
    if not SOURCES.is_dir():
        raise SystemExit(f"needs {SOURCES} (the shared real transcripts)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src, _ = build(root / "long-session.jsonl", int(args.mb * 1024 * 1024), distinct=args.distinct)
        raw = src.read_bytes()
        start = time.perf_counter()
        records = convert(raw, src.name, "claude-code")
        converted = time.perf_counter() - start
        start = time.perf_counter()
        proposed = extract_from_records(records)
        extraction = time.perf_counter() - start
        with_x, without, latest, every = [], [], [], []
        headline, facts = "", 0
        for run in range(args.runs):  # the order flips every run, so warm-up favours neither
            for extract in ((False, True) if run % 2 == 0 else (True, False)):
                took = asyncio.run(import_once(src, root / ("facts.db" if extract else "plain.db"), extract=extract))
                (with_x if extract else without).append(took)
            lt, at, headline, facts = asyncio.run(survival_times(root / "facts.db"))
            latest.append(lt)
            every.append(at)
    w, wo, lt, at = (statistics.median(x) for x in (with_x, without, latest, every))
    events = sum(1 for r in records if r.get("type") == "event")
    print(f"transcript: {len(raw) / 1e6:.1f} MB, {events:,} events, "
          f"{sum(len(v) for v in proposed.values())} proposed facts; median of {args.runs} alternating runs")
    print("| what | time | vs. import without extraction |")
    print("|---|---:|---:|")
    print(f"| import, extractor off (baseline) | {wo * 1000:,.0f} ms | 1.00× |")
    print(f"| import with extraction (`inspector import`) | {w * 1000:,.0f} ms | {w / wo:.2f}× |")
    print(f"| + survival of the latest generation | {lt * 1000:,.0f} ms | {(w + lt) / wo:.2f}× |")
    print(f"| + survival of every generation (`survival_all`) | {at * 1000:,.0f} ms | {(w + at) / wo:.2f}× |")
    print(f"extraction alone (pure, records in memory): {extraction * 1000:.0f} ms; converting the transcript: "
          f"{converted * 1000:.0f} ms; {facts} pending records written by the extractor; {headline}")


if __name__ == "__main__":
    main()
