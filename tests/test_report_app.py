"""ctrl+e in the app: the open session's report is written beside the store, and the app says where."""

from __future__ import annotations

from pathlib import Path

from inspector.ui.app import InspectorApp
from tests.test_app import settle


async def test_ctrl_e_writes_the_open_sessions_report_and_says_where(sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-orders")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+e")
        await settle(app, pilot)
        target = sample_store.with_name("samples.s-orders.report.html")
        assert target.is_file()
        page = target.read_text(encoding="utf-8")
        assert "s-orders" in page and "Protected state" in page
        assert any(str(target) in str(n.message) for n in app._notifications)
