"""A followed session's facts, read as the log grows, are exactly those of the whole log.

A live follow feeds the extractor only the events appended since its last look
(domain/facts_running.py). What a person then sees proposed must not depend on how the
agent's writes happened to be cut into looks: after every piece, the running extraction
gives the very records ``facts.extract`` of every event so far gives — keys, values,
sources, versions, details and times — on the real transcripts cut at random, and on the
rules that carry something from one event to a later one.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from inspector.domain.facts import extract
from inspector.domain.facts_running import NeedsWhole, RunningExtraction
from inspector.domain.logevents import LogEvent
from inspector.services.following import Follower, catch_up
from inspector.services.importing import import_file
from inspector.services.log_reads import log_events
from inspector.store.connection import open_store

SHARED = Path(__file__).resolve().parents[2] / "shared" / "real_sessions"
REAL = sorted((SHARED / "claude-code").glob("*.jsonl")) + sorted((SHARED / "gemini-cli").glob("*.json*")) \
    if SHARED.is_dir() else []


def records(facts: list[Any]) -> list[dict[str, Any]]:
    return [f.state_record("s") for f in facts]


def pieces(events: list[LogEvent], rng: random.Random, most: int) -> list[list[LogEvent]]:
    out, i = [], 0
    while i < len(events):
        size = rng.randint(1, most)
        out.append(events[i:i + size])
        i += size
    return out


def user(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "user_message", "user", text, at=f"2025-01-01T00:00:{seq:02d}Z")


def assistant(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "assistant_message", "model", text)


def call(seq: int, tool: str, args: dict[str, Any], call_id: str) -> LogEvent:
    return LogEvent(seq, "tool_call", "model", None, tool=tool, call_id=call_id, args=args)


def result(seq: int, text: str, call_id: str, *, error: bool = False) -> LogEvent:
    return LogEvent(seq, "tool_result", "tool", text, call_id=call_id, is_error=error)


# Every rule that carries something from one event to a later one, each across a cut.
CARRIED = [
    user(1, "Fix the export timeout. Never touch the production database."),
    call(2, "Edit", {"file_path": "/repo/a.go"}, "c-edit-ok"),
    call(3, "Edit", {"file_path": "/repo/b.go"}, "c-edit-bad"),
    call(4, "Bash", {"command": "pytest -q"}, "c-test-1"),
    result(5, "1 failed, 3 passed\nexit code 1", "c-test-1"),
    call(6, "TodoWrite", {"todos": [{"content": "measure P95", "status": "in_progress"}]}, "c-todo-1"),
    assistant(7, "Two ways:\n1. stream the export\n2. paginate the export\nWhich one?"),
    result(8, "edit failed: file changed on disk", "c-edit-bad", error=True),  # fails a call made at 3
    user(9, "1"),  # picks an option listed at 7
    call(10, "Bash", {"command": "pytest -q"}, "c-test-2"),
    result(11, "4 passed", "c-test-2"),  # resolves the failure at 5
    user(12, "New goal: ship the streaming export today, see https://example.org/run/9"),
    call(13, "TodoWrite", {"todos": [{"content": "measure P95", "status": "completed"}]}, "c-todo-2"),
    result(14, "ok", "c-edit-ok"),
]


@pytest.mark.parametrize("cut", range(1, len(CARRIED)))
def test_a_rule_carrying_state_across_a_cut_gives_the_whole_logs_records(cut: int) -> None:
    running = RunningExtraction.of(CARRIED[:cut])
    assert records(running.facts()) == records(extract(CARRIED[:cut]))
    running.feed(CARRIED[cut:])
    whole = extract(CARRIED)
    assert records(running.facts()) == records(whole)
    kinds = {f.kind for f in whole}
    assert {"goal", "constraint", "decision", "artifact", "failure", "progress", "reference"} <= kinds
    assert [f.value for f in whole if f.kind == "artifact"] == ["/repo/a.go"]  # b.go's edit failed later


def test_a_reused_call_id_or_an_event_out_of_order_asks_for_the_whole_log() -> None:
    running = RunningExtraction.of(CARRIED[:6])
    with pytest.raises(NeedsWhole):
        running.feed([call(20, "Bash", {"command": "ls"}, "c-test-1")])  # result at 5 named this id
    running = RunningExtraction.of(CARRIED[:6])
    with pytest.raises(NeedsWhole):
        running.feed([user(3, "late")])
    running = RunningExtraction.of([result(1, "boom", "c-late", error=True)])
    with pytest.raises(NeedsWhole):  # the call a result named arrives after it: pairing changes
        running.feed([call(2, "Bash", {"command": "make"}, "c-late")])


@pytest.fixture(scope="module")
def real_logs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, list[LogEvent]]]:
    async def read(path: Path, store: Path) -> list[tuple[str, list[LogEvent]]]:
        report = await import_file(path, store, actor="t")
        async with await open_store(store) as opened:
            return [(f"{path.name}:{s}", await log_events(opened.db, s)) for s in report.sessions]

    out: list[tuple[str, list[LogEvent]]] = []
    for i, path in enumerate(REAL):
        out += asyncio.run(read(path, tmp_path_factory.mktemp("real") / f"{i}.db"))
    return out


@pytest.mark.skipif(not REAL, reason=f"needs the real transcripts in {SHARED}")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_real_transcripts_cut_at_random_give_the_whole_logs_records_after_every_piece(
        real_logs: list[tuple[str, list[LogEvent]]], seed: int) -> None:
    rng = random.Random(seed)
    assert sum(len(events) for _, events in real_logs) > 500  # the five Claude Code transcripts and the Gemini CLI session
    for name, events in real_logs:
        running = RunningExtraction()
        fed: list[LogEvent] = []
        for piece in pieces(events, rng, most=[3, 60, 400][seed - 1]):
            running.feed(piece)
            fed += piece
            if len(fed) == len(events) or rng.random() < 0.25:  # extract() of a prefix costs the prefix
                assert records(running.facts()) == records(extract(fed)), f"{name} after evt:{fed[-1].seq}"
        assert running.facts(), name


@pytest.mark.skipif(not (SHARED / "claude-code").is_dir(), reason=f"needs the real transcripts in {SHARED}")
async def test_a_followed_transcript_proposes_after_each_look_what_the_whole_log_proposes(tmp_path: Path) -> None:
    source = SHARED / "claude-code" / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
    full = source.read_bytes()
    lines = full.split(b"\n")
    src, db = tmp_path / source.name, tmp_path / "s.db"
    src.write_bytes(b"\n".join(lines[:40]) + b"\n")
    caught = await catch_up(src, db, actor="t")
    follower = await Follower.open(db, src, actor="t")
    try:
        for cut in (41, 90, 91, 150, 260, len(lines)):
            with src.open("ab") as fh:
                fh.write(full[len(src.read_bytes()):len(b"\n".join(lines[:cut])) + 1])
            await follower.poll()
            running = follower.followed.running
            assert running is not None  # the look read only what was appended
            whole = extract(await log_events(follower.store.db, caught.session or ""))
            assert records(running.facts()) == records(whole)
    finally:
        await follower.close()
