"""A session with a thousand pending records: every one listed, counted and reachable by keys.

newuser-19 ("Not done" 1): 20,001 pending records froze the app for minutes, because the
Protected state list measured every wrapped row before its first paint. A list that long now
draws each record on one line, made only when drawn (ui/widgets/state_rows.py); these tests
check that nothing was cut short on the way: the counts, the last record, the marks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.content import Content

from bench.state_many import write_transcript
from inspector.services.channels import state_records
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.header_bar import HeaderBar
from inspector.ui.widgets.state_channel import StateChannel
from inspector.ui.widgets.state_rows import LONG_LIST, OneLineRow
from tests.test_app import settle, text_of

MANY = 1000


@pytest.fixture
async def many(tmp_path: Path) -> Path:
    src = tmp_path / "many.jsonl"
    write_transcript(src, MANY)
    store = tmp_path / "many.db"
    await import_file(src, store, actor="t")
    return store


async def test_a_thousand_pending_records_are_all_listed_counted_and_reachable(
        many: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(many)
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        state = app.screen.query_one(StateChannel)
        async with await open_store(many) as opened:
            records = await state_records(opened, app.screen.session)  # type: ignore[attr-defined]
        pending = sum(r.status == "pending" for r in records)
        assert pending > MANY > LONG_LIST
        assert len(state.items) == len(records)  # every record listed, none cut short
        # counted as the CLI counts: "◌ 1,001 pending records" (it said "◌ 20002", state-many #3)
        assert f"◌ {pending:,} pending rec" in text_of(app.screen.query_one(HeaderBar)) and "," in f"{pending:,}"
        records_list = state.records
        assert records_list.virtual_size.height == records_list.option_count  # one line a row
        shown = [strip.text for strip in records_list.render_lines(records_list.region.reset_offset)]
        assert any(line.rstrip().endswith("v1 · pending") and "…" in line for line in shown), shown

        records_list.focus()
        await pilot.press("end")
        last = records_list.get_option_at_index(records_list.option_count - 1).id
        assert state.highlighted_id() == last
        assert state.detail_content.plain.startswith(state.items[last].key)  # its detail shown
        assert any(f"continue {MANY} " in r.value for r in state.items.values())
        await pilot.press("space")
        assert state.marked == {last} and state.border_title.endswith("1 marked")
        await pilot.press("home", "pagedown", "pagedown")
        assert (records_list.highlighted or 0) > records_list.size.height  # past the first page
        beyond = state.highlighted_id() or ""
        assert state.items[beyond].value in state.detail_content.plain
        await pilot.press("space")
        assert state.marked == {last, beyond}
        await pilot.press("ctrl+a")
        assert len(state.marked) == pending - len(state.stale)
        assert state.border_title.endswith(f"{len(state.marked):,} marked")
        assert "✔" in "".join(strip.text for strip in records_list.render_lines(records_list.region.reset_offset))


@pytest.mark.parametrize("width", [6, 20, 40, 80, 200])
def test_a_one_line_row_never_wraps_and_keeps_its_version_when_there_is_room(width: int) -> None:
    row = OneLineRow(lambda: (Content("◌ "), Content("continue 7 " + "dolor sit " * 30), Content("  v1 · pending")))
    assert row.get_height(None, width) == 1  # type: ignore[arg-type]  # known without building the row
    line = row.line(width).plain
    assert "\n" not in line and len(line) <= width
    assert line.endswith("v1 · pending") == (width >= 2 + 8 + 14)  # the glyph, 8 cells of value, the tail
    assert row.plain.startswith("◌ continue 7 dolor sit") and row.plain.endswith("v1 · pending")


@pytest.mark.parametrize("width", [36, 38, 60])
def test_a_one_line_stale_marked_row_still_says_stale_and_marked_in_a_narrow_channel(width: int) -> None:
    from inspector.services.channels import StateRecord
    from inspector.ui.widgets.state_channel import record_row
    record = StateRecord(key="goal.later_request.7", version=12, kind="goal", value="continue 7 " + "dolor sit " * 30,
                         status="pending", writer="extractor", at=None, scope=None, sources=["evt:14"])
    line = record_row(record, True, True, long_list=True).line(width).plain  # type: ignore[union-attr]
    assert len(line) <= width and line.startswith("✔ continue 7")
    assert " · stale" in line and line.endswith("marked"), line
