"""At 80 columns a move between the channels and the tabs restyles the main screen once.

The narrow layout shows one zone at a time (inspector/ui/layout.py); the screen carries the
zone as two classes, and setting them one at a time restyled every widget of the screen twice
per move (a fifth of the CPU of the narrow key tests). The classes are now set together and
restyled once, and the zone shown is the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.widgets.channel import ChannelPane
from tests.test_app import settle


async def test_a_move_between_the_zones_restyles_the_screen_once(sample_store: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert screen.has_class("-narrow") and screen.has_class("-zone-channels")
        restyled: list[Any] = []
        update_styles = app.update_styles

        def counted(node: Any, animate: bool = True) -> None:
            restyled.append(node)
            update_styles(node, animate=animate)

        monkeypatch.setattr(app, "update_styles", counted)
        for key, zone, other in (("t", "-zone-tabs", "-zone-channels"), ("2", "-zone-channels", "-zone-tabs"),
                                 ("k", "-zone-tabs", "-zone-channels")):
            restyled.clear()
            await pilot.press(key)
            await settle(app, pilot)
            assert screen.has_class(zone) and not screen.has_class(other), key
            assert restyled.count(screen) == 1, (key, restyled.count(screen))
            tabs = screen.query_one("#tabs")
            panes = list(screen.query(ChannelPane))
            if zone == "-zone-tabs":  # the tabs take the whole height; no channel is shown
                assert tabs.region.height > 0 and all(p.region.height == 0 for p in panes), key
            else:  # the focused channel alone, the tabs hidden
                shown = [p for p in panes if p.region.height > 0]
                assert tabs.region.height == 0 and len(shown) == 1 and shown[0].has_class("-current"), key
                assert screen.focused is not None and shown[0] in screen.focused.ancestors_with_self, key
