"""Following a growing transcript: appended lines are imported once, in order; a partial last
line waits; a truncated, rewritten or replaced file is refused and nothing is merged."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.errors import BadInput
from inspector.services import exporting
from inspector.services.following import Follower, catch_up
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.conftest import event_record, session_record

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
CLAUDE = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"


def sif_lines(first: int, last: int) -> bytes:
    return b"".join(json.dumps(event_record(n, content=f"line {n}")).encode() + b"\n" for n in range(first, last + 1))


def start_sif(path: Path, events: int = 2) -> None:
    head = json.dumps({"type": "header", "format": "sif/1"}) + "\n" + json.dumps(session_record()) + "\n"
    path.write_bytes(head.encode() + sif_lines(1, events))


async def seqs(store_path: Path, session: str = "s1") -> list[int]:
    async with await open_store(store_path) as store:
        return [r[0] for r in await store.db.execute_fetchall("SELECT seq FROM events WHERE session = ? ORDER BY seq",
                                                              (session,))]


async def test_appended_sif_lines_arrive_once_in_order_and_a_partial_line_waits(tmp_path: Path) -> None:
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    start_sif(src)
    await catch_up(src, db, actor="t")
    follower = await Follower.open(db, src, actor="t")
    try:
        assert (await follower.poll()).events == []
        with src.open("ab") as fh:
            fh.write(sif_lines(3, 4) + sif_lines(5, 5)[:20])  # two whole lines and the start of a third
        step = await follower.poll()
        assert [e["seq"] for e in step.events] == [3, 4] and step.waiting == 20
        with src.open("ab") as fh:
            fh.write(sif_lines(5, 5)[20:])
        assert [e["content"] for e in (await follower.poll()).events] == ["line 5"]
        assert (await follower.poll()).events == []
    finally:
        await follower.close()
    assert await seqs(db) == [1, 2, 3, 4, 5]
    async with await open_store(db) as store:
        assert (await verify_store(store)).ok


@pytest.mark.parametrize("change", ["truncate", "rewrite", "replace"])
async def test_a_file_not_appended_to_is_refused_and_nothing_changes(tmp_path: Path, change: str) -> None:
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    start_sif(src, 4)
    await catch_up(src, db, actor="t")
    follower = await Follower.open(db, src, actor="t")
    data = src.read_bytes()
    if change == "truncate":
        src.write_bytes(data[: len(data) // 2])
    elif change == "rewrite":  # same length, one earlier line changed, then a line appended
        src.write_bytes(data.replace(b"line 2", b"LINE 2") + sif_lines(5, 5))
    else:  # another file moved into its place, starting with the same bytes
        other = tmp_path / "other.jsonl"
        other.write_bytes(data + sif_lines(5, 5))
        other.replace(src)
    try:
        with pytest.raises(BadInput) as refused:
            await follower.poll()
    finally:
        await follower.close()
    assert refused.value.code == ("source_truncated" if change == "truncate" else "source_rewritten")
    assert "nothing was merged" in refused.value.message
    assert await seqs(db) == [1, 2, 3, 4]
    if change != "replace":  # a later catch-up (reopening the file) checks the bytes, and refuses them too
        with pytest.raises(BadInput):
            await catch_up(src, db, actor="t")
    async with await open_store(db) as store:
        assert (await verify_store(store)).ok


@pytest.mark.skipif(not CLAUDE.is_file(), reason=f"the real Claude Code transcripts are not beside the project ({REAL})")
async def test_a_claude_code_transcript_followed_in_pieces_exports_byte_for_byte(tmp_path: Path) -> None:
    full = CLAUDE.read_bytes()
    lines = full.split(b"\n")
    src, db = tmp_path / CLAUDE.name, tmp_path / "s.db"
    src.write_bytes(b"\n".join(lines[:60]) + b"\n")
    caught = await catch_up(src, db, actor="t")
    follower = await Follower.open(db, src, actor="t")
    printed: list[int] = []
    try:
        for cut in (61, 120, 121, 200, len(lines)):
            with src.open("ab") as fh:
                fh.write(full[len(src.read_bytes()):len(b"\n".join(lines[:cut])) + 1])
            printed += [e["seq"] for e in (await follower.poll()).events]
        assert src.read_bytes() == full
    finally:
        await follower.close()
    assert printed == list(range(caught.added_events + 1, caught.added_events + 1 + len(printed)))
    async with await open_store(db) as store:
        await exporting.export_original(store, caught.session or "", tmp_path / "back.jsonl")
        assert (await verify_store(store)).ok
        results = await store.db.execute_fetchall("SELECT COUNT(*) FROM events WHERE kind = 'tool_result' AND tool IS NULL")
        assert results[0][0] == 0  # results whose call came in an earlier piece still name their tool
    assert (tmp_path / "back.jsonl").read_bytes() == full
    # the lines that arrived while following get the facts a whole import proposes
    whole = tmp_path / "whole.db"
    await catch_up(CLAUDE, whole, actor="t")
    assert await state_keys(db) == await state_keys(whole) and await state_keys(db)


async def state_keys(store_path: Path) -> set[str]:
    async with await open_store(store_path) as store:
        return {r[0] for r in await store.db.execute_fetchall("SELECT DISTINCT key FROM state_records")}


def test_follow_once_prints_each_new_event_once_as_a_json_line(tmp_path: Path) -> None:
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    start_sif(src, 3)
    first = CliRunner().invoke(cli, ["follow", str(src), "--into", str(db), "--once", "--reviewer", "t"])
    assert first.exit_code == 0, first.output
    assert [json.loads(line)["seq"] for line in first.stdout.splitlines()] == [1, 2, 3]
    with src.open("ab") as fh:
        fh.write(sif_lines(4, 5))
    second = CliRunner().invoke(cli, ["follow", str(src), "--into", str(db), "--once", "--reviewer", "t"])
    assert [json.loads(line)["content"] for line in second.stdout.splitlines()] == ["line 4", "line 5"]
    src.write_bytes(src.read_bytes()[:50])
    refused = CliRunner().invoke(cli, ["follow", str(src), "--into", str(db), "--once"])
    assert refused.exit_code == 3
    assert json.loads(refused.stdout.splitlines()[-1])["error"]["code"] == "source_truncated"


def test_follow_rejects_a_gemini_file_and_a_missing_one(tmp_path: Path) -> None:
    doc = tmp_path / "session-x.json"
    doc.write_text(json.dumps({"sessionId": "g", "projectHash": "h", "startTime": "2026-01-01T00:00:00Z",
                               "lastUpdated": "2026-01-01T00:00:00Z", "messages": []}, indent=2))
    refused = CliRunner().invoke(cli, ["follow", str(doc), "--into", str(tmp_path / "g.db"), "--once"])
    assert refused.exit_code == 3 and "cannot be followed" in refused.stderr
    assert not (tmp_path / "g.db").exists()
    missing = CliRunner().invoke(cli, ["follow", str(tmp_path / "nope.jsonl"), "--once"])
    assert missing.exit_code == 3 and "cannot read" in missing.stderr


def test_follow_prints_lines_a_running_writer_appends(tmp_path: Path) -> None:
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    start_sif(src, 1)
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "follow", str(src), "--into", str(db),
                             "--interval", "0.1", "--timeout", "20", "--reviewer", "t"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["seq"] == 1
        for n in range(2, 5):
            with src.open("ab") as fh:
                fh.write(sif_lines(n, n))
            started = time.monotonic()
            line = json.loads(proc.stdout.readline())
            assert line["seq"] == n and time.monotonic() - started < 2
    finally:
        proc.kill()
        proc.wait()


async def test_a_codex_rollout_followed_in_two_parts_numbers_on_and_exports_byte_for_byte(tmp_path: Path) -> None:
    from tests.test_importers import CODEX

    lines = [json.dumps(r).encode() + b"\n" for r in CODEX]
    src, db = tmp_path / "rollout-2026-01-01-cx-1.jsonl", tmp_path / "cx.db"
    src.write_bytes(b"".join(lines[:4]))  # up to the call; its output and the compaction come later
    await catch_up(src, db, actor="t")
    follower = await Follower.open(db, src, actor="t")
    try:
        with src.open("ab") as fh:
            fh.write(b"".join(lines[4:]))
        new = (await follower.poll()).events
    finally:
        await follower.close()
    assert [e["seq"] for e in new] == [5, 6, 7, 8]
    assert new[0]["kind"] == "tool_result" and new[0]["tool"] == "shell"  # its call came in the first part
    assert new[0]["origin"]["line"] == 5 and new[0]["origin"]["material"] == f"original:{src.name}@{len(b''.join(lines[:4]))}"
    async with await open_store(db) as store:
        gens = await store.db.execute_fetchall("SELECT generation, covers FROM summaries")
        assert [(g, json.loads(c)) for g, c in gens] == [(1, [1, 6])]  # every event before the compaction (7)
        await exporting.export_original(store, "cx-1", tmp_path / "back.jsonl")
        assert (await verify_store(store)).ok
    assert (tmp_path / "back.jsonl").read_bytes() == src.read_bytes()
