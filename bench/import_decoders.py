"""The 4 MB transcript's lines read by each decoder the import could use, in one run.

    python -m bench.import_decoders [--mb 4] [--runs 15]

Issue #18 asks for the 4 MB transcript in ≤ 3× ``json.loads``; session 19 (import-twelve) was
asked to try msgspec's typed decoding (Struct types for the Claude Code record shapes, so that
parsing and checking the fields are one C pass) against the orjson the import reads lines with.
Printed, as thread CPU (the minimum of ``--runs``, collector paused), for the lines of the file
bench/import_extract.py builds:

* ``json.loads`` (the baseline), ``orjson.loads``, and the import's decoder (store/jsoncodec.py
  ``fast_loads``: orjson, then the proof that its answer is the guarded decoder's — the value
  re-encoded equals the line, nesting bounded);
* msgspec's untyped decode, and its decode + re-encode (the same proof, msgspec's way);
* msgspec's typed decode into Structs holding the fields the converter reads (unknown fields
  dropped): what it costs with no proof at all, and the converter's own field checks
  (``claude_code._record_problem``) it would replace;
* what msgspec answers for a line the guarded decoder refuses: a repeated key, an integer past
  2^53 — if it takes them, a typed decode still needs the proof.

msgspec is not a dependency (it did not earn its place: docs/benchmarks.md, "Session 19:
import-twelve"); without it installed its rows say so.
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from bench.import_extract import SOURCES, build
from inspector.domain.formats import claude_code
from inspector.domain.formats.tolerant import read_jsonl
from inspector.store.jsoncodec import fast_loads

try:
    import msgspec
except ImportError:  # not a dependency: measured when installed
    msgspec = None

if msgspec is not None:
    # The fields the Claude Code converter reads (claude_code._RECORD, _BLOCK), typed; any other dropped.
    class Block(msgspec.Struct):
        type: str | None = None
        text: str | None = None
        thinking: str | None = None
        signature: str | None = None
        data: str | None = None
        id: str | None = None
        name: str | None = None
        input: dict[str, Any] | None = None
        tool_use_id: str | None = None
        content: Any = None
        is_error: bool | None = None

    class Message(msgspec.Struct):
        id: str | None = None
        model: str | None = None
        content: str | list[Block] | None = None

    class Record(msgspec.Struct):
        type: str | None = None
        sessionId: str | None = None
        timestamp: str | None = None
        uuid: str | None = None
        subtype: Any = None
        isSidechain: bool | None = None
        isMeta: bool | None = None
        isCompactSummary: bool | None = None
        message: Message | None = None
        data: dict[str, Any] | None = None


def least(fn: Callable[[], Any], runs: int) -> float:
    """The least thread CPU of ``runs`` calls, in ms, with the collector paused."""
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            start = time.thread_time()
            fn()
            best = min(best, time.thread_time() - start)
        finally:
            gc.enable()
    return best * 1000


Row = tuple[str, "Callable[[], Any] | str"]  # a measurement, or what was seen (a sentence)


def msgspec_rows(lines: list[bytes]) -> list[Row]:
    if msgspec is None:
        return [("msgspec (not installed: `pip install msgspec` to measure it)", "—")]

    plain, typed, enc = msgspec.json.Decoder(), msgspec.json.Decoder(Record), msgspec.json.Encoder()

    def typed_all() -> None:
        for line in lines:
            try:
                typed.decode(line)
            except msgspec.ValidationError:
                pass  # a record of another shape: it would take the untyped path

    def said(raw: bytes) -> str:
        try:
            return repr(plain.decode(raw))
        except msgspec.DecodeError as exc:
            return f"refused ({exc})"

    return [
        ("msgspec untyped decode", lambda: [plain.decode(line) for line in lines]),
        ("msgspec untyped decode + re-encode (the proof, msgspec's way)",
         lambda: [enc.encode(plain.decode(line)) for line in lines]),
        ("msgspec typed decode into Structs, no proof, unknown fields dropped", typed_all),
        ('msgspec on `{"a":1,"a":2}` (the guarded decoder: duplicate_key)', said(b'{"a":1,"a":2}')),
        ('msgspec on `{"a":12345678901234567890123}` (guarded: integer_out_of_range)',
         said(b'{"a":12345678901234567890123}')),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    if not SOURCES.is_dir():
        raise SystemExit(f"needs {SOURCES} (the shared real transcripts)")
    with tempfile.TemporaryDirectory() as tmp:
        src, _ = build(Path(tmp) / "long-session.jsonl", int(args.mb * 1024 * 1024))
        raw = src.read_bytes()
    lines = [line for line in raw.split(b"\n") if line.strip()]
    rows_read = [r for r in read_jsonl(raw, fast_loads) if isinstance(r, tuple)]
    rows: list[Row] = [
        ("`json.loads` (baseline)", lambda: [json.loads(line) for line in lines]),
        ("`orjson.loads`", lambda: [orjson.loads(line) for line in lines]),
        ("orjson decode + re-encode", lambda: [orjson.dumps(orjson.loads(line), option=orjson.OPT_STRICT_INTEGER)
                                               for line in lines]),
        ("the import's decoder (`fast_loads`: orjson + its proof)", lambda: [fast_loads(line) for line in lines]),
        ("the converter's field checks (`claude_code._record_problem`)",
         lambda: [claude_code._record_problem(rec) for _, rec in rows_read]),
        *msgspec_rows(lines),
    ]
    # Two rounds, the second in reverse order, each row's least kept: the first measurement of a
    # decoder in a process can be half again slower whatever the runs (the allocator's state after
    # building the file), which made orjson look slower than msgspec in one order and not the other.
    found: dict[str, float] = {}
    for order in (rows, rows[::-1]):
        for name, what in order:
            if callable(what):
                found[name] = min(found.get(name, float("inf")), least(what, args.runs))
    base = found[rows[0][0]]
    print(f"{len(raw) / 1e6:.2f} MB, {len(lines):,} lines; thread CPU, least of {args.runs} in each of two rounds")
    print("| what | CPU | × json.loads |")
    print("|---|---:|---:|")
    for name, what in rows:
        if callable(what):
            print(f"| {name} | {found[name]:.1f} ms | {found[name] / base:.2f}× |")
        else:
            print(f"| {name} | {what} | — |")


if __name__ == "__main__":
    main()
