"""A followed session's channels follow it, and its appended parts fold into one Raw evidence row.

Issue 15's re-check on a real Claude Code transcript followed at 100×30: every poll keeps the
appended bytes as one more part of the kept original (``original:FILE@OFFSET``), and after four
minutes Raw evidence listed 65 of them, pushing the stubs a reviewer expands below the fold. And the
channels were not read again after a poll: a compaction that arrived showed in the header ("gen 1
keeps 3 of 3 facts") while Task summary still said "no summary generations", and Raw evidence
lacked every material imported since the app opened.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from inspector.services.channels import MaterialView
from inspector.services.following import catch_up
from inspector.ui.app import InspectorApp
from inspector.ui.evidence_rows import PartsRun, arrange
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from inspector.ui.widgets.follow_bar import FollowBar
from inspector.ui.widgets.summary_channel import SummaryChannel
from tests.test_app import settle
from tests.test_browser_ui import _until

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
COMPACTED = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"


def _material(mid: str, size: int = 10, stubs: int = 0) -> MaterialView:
    from inspector.services.channels import StubView

    return MaterialView(mid, size, None, "task", None, "sha256:ab", None, None, False, size,
                        [StubView(f"stub-{mid}-{i}", mid, [0, size], None, "task", None, "o", None)
                         for i in range(stubs)])


def test_the_parts_of_an_original_fold_into_one_run_after_it() -> None:
    rows = arrange([_material("original:a.jsonl", 100), _material("res:1", stubs=1),
                    _material("original:a.jsonl@100", 20), _material("res:2", stubs=1),
                    _material("original:a.jsonl@120", 30), _material("original:b.jsonl@7", 5)])
    assert [r.original if isinstance(r, PartsRun) else r.id for r in rows] == [
        "original:a.jsonl", "original:a.jsonl", "res:1", "res:2", "original:b.jsonl@7"]
    run = rows[1]
    assert isinstance(run, PartsRun) and (run.start, run.end, run.size, len(run.parts)) == (100, 150, 50, 2)


def test_parts_without_their_original_listed_fold_where_the_first_was_and_a_part_with_stubs_stays() -> None:
    rows = arrange([_material("res:1"), _material("original:c@5", 5), _material("original:c@10", 5, stubs=1),
                    _material("original:c@15", 5)])
    assert [r.original if isinstance(r, PartsRun) else r.id for r in rows] == ["res:1", "original:c", "original:c@10"]


def _rows(channel: EvidenceChannel) -> list[str]:
    records = channel.records
    return [records.get_option_at_index(i).id or "" for i in range(records.option_count)]


@pytest.mark.skipif(not COMPACTED.exists(), reason=f"{COMPACTED} is missing (../shared not beside the project)")
async def test_a_followed_real_transcript_keeps_its_channels_current_and_its_parts_folded(tmp_path: Path) -> None:
    lines = COMPACTED.read_bytes().splitlines(keepends=True)
    src, db = tmp_path / COMPACTED.name, tmp_path / "live.db"
    src.write_bytes(b"".join(lines[:40]))
    await catch_up(src, db, actor="ana")
    app = InspectorApp(db, follow=src, reviewer="ana")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        bar = screen.query_one(FollowBar)
        evidence = screen.query_one(EvidenceChannel)
        summary = screen.query_one(SummaryChannel)
        await _until(pilot, lambda: bar.follower is not None and bar.follower.resume is not None, "never followed")
        assert summary.items == {}, "the first 40 lines hold no compaction"
        cuts = [40, 100, 150, 190, len(lines) - 1]
        for a, b in zip(cuts, cuts[1:], strict=False):
            with src.open("ab") as fh:
                fh.write(b"".join(lines[a:b]))
            wanted = bar.received
            await _until(pilot, lambda w=wanted: bar.received > w, f"lines {a}–{b} never imported")
            await pilot.pause(0.3)
        await _until(pilot, lambda: bool(evidence.runs), lambda: f"no folded parts: {_rows(evidence)[:6]}")
        await settle(app, pilot)
        assert summary.items, "the compaction that arrived is listed in Task summary"
        rows = _rows(evidence)
        (run_id,) = evidence.runs
        parts = len(evidence.runs[run_id].parts)
        assert parts >= 3 and rows.count(run_id) == 1
        assert not any(r.startswith("mat:original:") and "@" in r for r in rows), "no part has a row of its own"
        stubs = [r for r in rows if r.startswith("stub:")]
        assert stubs and rows.index(stubs[0]) <= 4, f"a stub among the first rows: {rows[:6]}"

        # enter on the run lists its parts; the cursor stays on the run; enter again folds them
        evidence.records.focus()
        evidence.records.highlighted = rows.index(run_id)
        await pilot.press("enter")
        await settle(app, pilot)
        assert len(_rows(evidence)) == len(rows) + parts and evidence.records.highlighted == rows.index(run_id)
        await pilot.press("enter")
        await settle(app, pilot)
        assert _rows(evidence) == rows

        # a poll keeps the cursor where the reviewer put it
        evidence.records.highlighted = rows.index(stubs[-1])
        with src.open("ab") as fh:
            fh.write(lines[-1])  # the transcript's last line, held back until now
        await _until(pilot, lambda: len(evidence.runs[run_id].parts) > parts, "the last line was never read")
        await settle(app, pilot)
        records: OptionList = evidence.records
        assert records.get_option_at_index(records.highlighted or 0).id == stubs[-1]


async def test_a_poll_that_only_adds_parts_or_materials_does_not_rebuild_the_list() -> None:
    """Rebuilding the list at every poll took ~0.3 s with 2,000 stubs: a poll that only added a part
    redraws the run's line, one that brought new materials adds their rows at the end."""
    from textual.app import App, ComposeResult

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield EvidenceChannel()

    first = [_material("original:a.jsonl", 100), _material("res:1", stubs=1), _material("original:a.jsonl@100", 20),
             _material("original:a.jsonl@120", 30)]
    app = One()
    async with app.run_test(size=(100, 30)) as pilot:
        evidence = app.query_one(EvidenceChannel)
        evidence.load(first)
        await pilot.pause()
        kept = [evidence.records.get_option_at_index(i) for i in range(evidence.records.option_count)]
        evidence.records.highlighted = 2  # the stub
        evidence.load([*first, _material("original:a.jsonl@150", 5)], keep=True)
        await pilot.pause()
        now = [evidence.records.get_option_at_index(i) for i in range(evidence.records.option_count)]
        assert [o.id for o in now] == [o.id for o in kept] and now[0] is kept[0] and now[2] is kept[2]
        assert "3 parts" in str(now[1].prompt) and evidence.records.highlighted == 2
        evidence.load([*first, _material("original:a.jsonl@150", 5), _material("res:2", stubs=1)], keep=True)
        await pilot.pause()
        grown = [evidence.records.get_option_at_index(i) for i in range(evidence.records.option_count)]
        assert [o.id for o in grown] == [o.id for o in kept] + ["mat:res:2", "stub:stub-res:2-0"]
        assert grown[0] is kept[0] and evidence.records.highlighted == 2
