"""A search that finds nothing says so as a person would, and leaves no stale detail.

Issue 15's re-check: the head of an empty search read "0 occurrences in 0 items for “zqxwv”",
and the detail below still showed the material highlighted before the search.
"""

from __future__ import annotations

from pathlib import Path

from inspector.ui.app import InspectorApp
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from tests.test_app import settle


async def test_no_match_is_said_in_words_and_the_detail_is_cleared(sample_store: Path) -> None:
    app = InspectorApp(sample_store, reviewer="lin")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        await pilot.press("3")
        assert evidence.detail_content.plain.strip(), "a material's detail before the search"
        await pilot.press("/", *"zqxwv")
        await settle(app, pilot)
        head = str(evidence.records.get_option_at_index(0).prompt)
        assert head.startswith("No match for “zqxwv”"), head
        assert "0 occurrences" not in head and "0 items" not in head
        assert evidence.detail_content.plain == ""
        await pilot.press("escape")
        await settle(app, pilot)
        await pilot.press("/", *"导出")
        await settle(app, pilot)
        head = str(evidence.records.get_option_at_index(0).prompt)
        assert "occurrences in" in head and "[ ] step through them" in head, head
        assert " · 1 occurrence — enter opens it" in evidence.detail_content.plain
