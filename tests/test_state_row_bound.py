"""A long protected value takes at most three lines of Protected state.

A real transcript's first goal is a whole prompt: at 120×35 it wrapped to 9 lines and pushed
every other record below the fold. The row is cut with "…" before its version and status (so
the row still says ``v1 · pending``); the detail pane shows the whole value when it is highlighted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.services.channels import StateRecord
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.state_channel import StateChannel, record_line
from tests.test_app import settle

REAL = (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
        / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl")
LONG = ("let's go back to current code, I did another try and now I have multiple session in the metadata "
        "but also 4 commits on entire/sessions with the same checkpoint basically done at the same time, "
        "can you help me understand how this happend? again in /Users/soph/Work/entire/test/gemini_test")


def _record(value: str) -> StateRecord:
    return StateRecord(key="goal.main", version=1, kind="goal", value=value, status="pending",
                       writer="extractor", at=None, scope=None, sources=["evt:4"])


@pytest.mark.parametrize("width", [20, 36, 76, 116])
def test_a_long_value_is_three_lines_ending_with_its_version(width: int) -> None:
    lines = record_line(_record(LONG)).fitted(width).plain.split("\n")
    assert len(lines) <= 3, lines
    assert lines[-1].endswith("v1 · pending")
    assert ("…" in lines[-1]) == (width < 116)  # cut only when it does not fit in three lines
    assert all(len(line) <= width for line in lines)


def test_a_short_value_is_unchanged() -> None:
    assert record_line(_record("ship it")).fitted(80).plain == "◌ ship it  v1 · pending"


@pytest.mark.skipif(not REAL.is_file(), reason="needs ../shared/real_sessions/claude-code (CI has it)")
@pytest.mark.parametrize("size", [(120, 35), (80, 24)])
async def test_the_real_first_goal_leaves_room_for_the_next_records(tmp_path: Path, size: tuple[int, int],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    store = tmp_path / "s.db"
    await import_file(REAL, store, actor="t")
    app = InspectorApp(store)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        records = app.screen.query_one(StateChannel).records
        lines = [strip.text for strip in records.render_lines(records.region.reset_offset)]
        starts = [i for i, line in enumerate(lines) if line.startswith("◌ ")]
        assert len(starts) >= 2 and starts[1] - starts[0] <= 3, lines  # the second goal is in sight
        state = app.screen.query_one(StateChannel)
        assert "how this happend? again in" in state.detail_content.plain  # the whole value, highlighted
