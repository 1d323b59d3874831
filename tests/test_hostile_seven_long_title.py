"""A 10 KB session title or id does not fill the Sessions panel (hostile review seven).

Before: the list showed each session's whole title and id, wrapped into the narrow panel: a
10,000-character title (a transcript's own session id, or a title holding a pasted document)
took hundreds of lines and every other session was out of sight. Now each is cut to a line or
two with "…"; the header shows the whole title once the session is open.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.sessions_list import ID_MAX, TITLE_MAX, SessionsList
from tests.conftest import write_sif
from tests.test_app import settle

AT = "2025-05-01T00:00:00Z"


def _store(tmp_path: Path) -> Path:
    long_id = "s-" + "x" * 2000
    records: list[dict[str, object]] = []
    for sid, title in ((long_id, "T " * 5000), ("s-short", "the short one")):
        records += [{"type": "session", "id": sid, "title": title, "owner": "o", "created_at": AT},
                    {"type": "event", "session": sid, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                     "content": "hi"}]
    store = tmp_path / "long.db"
    result = CliRunner().invoke(cli, ["import", str(write_sif(tmp_path / "long.jsonl", records)), "--into", str(store),
                                      "--reviewer", "r"])
    assert result.exit_code == 0, result.output
    return store


async def test_a_long_title_and_id_are_cut_in_the_sessions_list(tmp_path: Path) -> None:
    import asyncio

    store = await asyncio.to_thread(_store, tmp_path)
    app = InspectorApp(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)  # the main screen open (a start screen comes first), not a 0.5 s sleep
        listing = app.screen.query_one(SessionsList)
        async with asyncio.timeout(30):  # a hang guard only
            while listing.option_count < 2:
                await pilot.pause(0.1)
        shown = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert all(len(text) < TITLE_MAX + ID_MAX + 40 for text in shown), [len(t) for t in shown]
        assert any("…" in text for text in shown) and any("the short one" in text for text in shown)
