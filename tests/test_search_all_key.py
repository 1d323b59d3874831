"""The every-session search has a key of its own: ``S`` (flow-nine).

"Search every session…" was in the command palette only (new-user-16): a reviewer looking for a
command across a team's sessions had to know the palette held it. ``S`` opens it from the channels
and from the timeline, ``?`` lists it, and no other screen or widget of the app binds ``S``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
from textual.binding import Binding

import inspector.ui
from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.search_sessions_dialog import SearchSessionsDialog
from tests.test_app import settle


@pytest.mark.parametrize("first", ["", "t"])
async def test_S_opens_the_search_of_every_session(sample_store: Path, first: str) -> None:
    app = InspectorApp(sample_store, reviewer="t")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        if first:
            await pilot.press(first)  # from the timeline too
            await settle(app, pilot)
        await pilot.press("S")
        await settle(app, pilot)
        assert isinstance(app.screen, SearchSessionsDialog)


async def test_the_keys_help_lists_it(sample_store: Path) -> None:
    app = InspectorApp(sample_store, reviewer="t")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        bound = {b.key: b.description for _n, b, _e, _t in app.screen.active_bindings.values()}
        assert bound.get("S") == "Search all sessions", bound


def test_no_other_screen_or_widget_binds_S() -> None:
    owners = []
    for info in pkgutil.walk_packages(inspector.ui.__path__, "inspector.ui."):
        module = importlib.import_module(info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for b in cls.__dict__.get("BINDINGS", []):
                keys = b.key.split(",") if isinstance(b, Binding) else str(b[0]).split(",")
                if "S" in keys:
                    owners.append(f"{cls.__module__}.{cls.__qualname__}")
    assert owners == ["inspector.ui.main_screen.MainScreen"], owners
