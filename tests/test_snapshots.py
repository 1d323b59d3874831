"""SVG snapshots of the main screen on a sample session, wide and narrow.

Update after an intended visual change with ``pytest tests/test_snapshots.py --snapshot-update``
and look at the report before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.ui.app import InspectorApp


async def _settled(pilot: Pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", [(200, 50), (100, 30)])
def test_main_screen(snap_compare: object, sample_store: Path, size: tuple[int, int]) -> None:
    app = InspectorApp(sample_store)
    assert snap_compare(app, terminal_size=size, run_before=_settled)  # type: ignore[operator]


def test_main_screen_deepseek_session(snap_compare: object, sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-weather")
    assert snap_compare(app, terminal_size=(160, 45), run_before=_settled)  # type: ignore[operator]
