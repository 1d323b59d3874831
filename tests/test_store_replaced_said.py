"""A store file replaced under the open app is said before the first write (review-15 item 3).

``cp other.db x && mv x t4.db`` under the open app: ctrl+r and every read kept showing the old
file's rows without a word; only the first write refused (``store_file_replaced``). The live
look (every half second) and ctrl+r now say it, once."""

from __future__ import annotations

import shutil
from pathlib import Path

from inspector.ui.app import InspectorApp
from tests.live_looks import looks
from tests.test_app import settle


async def test_a_store_file_moved_over_the_open_one_is_said_once(sample_store: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    shutil.copyfile(sample_store, other)
    app = InspectorApp(sample_store, session="s-export", reviewer="t")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        assert not [n for n in app._notifications if n.title == "Store file replaced"]
        other.replace(sample_store)  # mv other.db samples.db
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        await looks(app, pilot)  # and two live looks more: said once, not at each
        said = [n.message for n in app._notifications if n.title == "Store file replaced"]
    assert len(said) == 1 and said[0].endswith("(store_file_replaced)") and "reopen the store" in said[0]
