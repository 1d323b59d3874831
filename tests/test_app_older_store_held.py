"""The app holds an older store's upgrade as a command does (storefault-eleven, lead-18 #4).

Before, the app upgraded an older store as it opened it, so an act refused in the app (or no act
at all: a reviewer who only looked) left the file upgraded — and versions that read only the older
format could no longer open it. Now it is shown through an upgraded copy, said at open ("Older
store"), and upgraded only by the first change made, said then ("Store format upgraded").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from inspector.store.schema import FORMAT_VERSION
from inspector.ui.app import InspectorApp
from inspector.ui.dialogs import MessageDialog
from inspector.ui.review_dialog import ReasonDialog
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import settle, text_of
from tests.test_format_upgrade_said import _folder, _version
from tests.test_older_store_busy_said import _to_format_8
from tests.test_review_dialog import _review
from tests.test_store_faults import _child


def _heard(app: InspectorApp) -> list[tuple[str, str]]:
    """Every notice the app gives, kept (a toast expires, and a loaded machine's test outlasts it)."""
    said: list[tuple[str, str]] = []
    notify = app.notify

    def kept(message: str, *args: object, title: str = "", **kwargs: object) -> None:
        said.append((title, str(message)))
        notify(message, *args, title=title, **kwargs)  # type: ignore[arg-type]

    app.notify = kept  # type: ignore[method-assign]
    return said


async def test_the_app_shows_an_older_store_and_a_refused_act_leaves_it(sample_store: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _to_format_8(sample_store)
    before = _folder(sample_store)
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    heard = _heard(app)
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        said = [text for title, text in heard if title == "Older store"]
        assert said and "has store format 8: shown as format 9" in said[0] and "until your first change" in said[0]
        assert "format 8" in text_of(app.screen.query_one(HeaderBar))  # and in the header, while it lasts
        dialog = await _review(app, pilot, "cand-space")  # accept is refused: exact_fields_changed
        await pilot.press("a")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and "exact_fields_changed" in app.screen.dialog_title
        await pilot.press("escape")
        await settle(app, pilot)
        assert dialog.view is not None and dialog.view.validation.status == "pending"
        assert "Store format upgraded" not in [title for title, _ in heard]
    assert _folder(sample_store) == before and _version(sample_store) == 8  # byte for byte, as it was


async def test_the_first_change_in_the_app_upgrades_the_older_store_and_says_so(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _to_format_8(sample_store)
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    heard = _heard(app)
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        dialog = await _review(app, pilot, "cand-warn")
        await pilot.press("r")
        await settle(app, pilot)
        assert isinstance(app.screen, ReasonDialog)
        app.screen.query_one(Input).value = "not now"
        await pilot.press("enter")
        await settle(app, pilot)
        assert dialog.view is not None and dialog.view.validation.status == "rejected"
        await pilot.press("escape")
        await settle(app, pilot)
        assert "format 8" not in text_of(app.screen.query_one(HeaderBar))  # upgraded: the header says it no more
        said = [text for title, text in heard if title == "Store format upgraded"]
        assert len(said) == 1 and f"upgraded store format 8 → {FORMAT_VERSION}" in said[0].lower(), said
    assert _version(sample_store) == FORMAT_VERSION
    assert _child(["verify", str(sample_store)]).returncode == 0
