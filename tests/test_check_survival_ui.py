"""The app's header, Drift tab and Survival tab say what ``check`` says of survival (check-verdicts)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList, Tab, Tabs

from inspector.services.checking import check_store
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import settle, text_of


async def test_header_and_tabs_show_checks_survival_findings(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    async with await open_store(sample_store) as opened:
        [checked] = await check_store(opened, sessions=["s-export"], only=["survival"])
    lost = checked.survival
    assert lost and checked.verdict == "failed"
    app = InspectorApp(sample_store)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        assert app.screen.session == "s-export"  # type: ignore[attr-defined]
        assert f"✗ {len(lost)} facts lost" in text_of(app.screen.query_one(HeaderBar))
        await pilot.press("d")
        await settle(app, pilot)
        labels = [str(t.label) for t in app.screen.query_one(Tabs).query(Tab)]
        assert f"Survival ✗{len(lost)}" in labels, labels
        options = app.screen.query_one("#drift-findings", OptionList)
        rows = " ".join(str(options.get_option_at_index(i).prompt) for i in range(options.option_count))
        assert all(f["code"] in rows for f in lost), rows[:400]
