"""What a new reviewer met on transcripts nobody had seen (docs/reviews/newuser-18.md).

The Drift tab's field timeline showed key names and no marks: an imported rule's key is a slug of
its words with a hash (50 characters), and the marks came after it, past the pane's edge.
"""

from __future__ import annotations

from pathlib import Path

from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from tests.conftest import event_record, session_record, write_sif
from tests.test_app import settle

LONG_KEY = "constraint.never-push-to-main-open-a-pr-aga.e31fdb"  # as the importer names a real rule


async def _store_with_a_long_key(tmp_path: Path) -> Path:
    rule = "Never push to main; open a PR against release/2.3 instead"
    records = [session_record(owner="t"), event_record(1, content=rule),
               {"type": "state", "session": "s1", "key": LONG_KEY, "kind": "constraint", "value": rule,
                "sources": ["evt:1"], "writer": "user", "version": 1, "status": "active"},
               {"type": "state", "session": "s1", "key": "goal.main", "kind": "goal", "value": "migrate billing",
                "sources": ["evt:1"], "writer": "user", "version": 1, "status": "active"},
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                "text": "Pushed the fix to main.", "covers": [1, 1], "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t")
    return store


async def test_the_field_timeline_shows_each_keys_mark_inside_the_pane(tmp_path: Path) -> None:
    """At 80×24 (pane about 28 wide) and 120×35 (about 45), a 50-character key put its ∅ past the
    pane's edge: the reviewer saw "goal.main / constraint.never-push-to-main…" and no verdict."""
    store = await _store_with_a_long_key(tmp_path)
    for size in ((80, 24), (120, 35)):
        app = InspectorApp(store, reviewer="t")
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("d")
            await settle(app, pilot)
            lines = str(app.screen.query_one("#drift-timeline-text").render()).split("\n")
            width = app.screen.query_one("#drift-timeline").content_region.width
            rows = {key: next(line for line in lines if key[:20] in line) for key in (LONG_KEY, "goal.main")}
            for key, row in rows.items():
                seen = row[:width]
                assert "∅" in seen, (size, width, key, lines)
