"""The pilot's wait for an idle app: 5 ms steps, and no frame left pending.

``Pilot.press`` waits twice per key, and ``Pilot.pause`` once, in Textual's ``wait_for_idle``:
it sleeps a 20 ms step at a time and ends when a step used under a twentieth of its length in
CPU. Each wait is at least one whole step, so a key cost at least 40 ms of sleeping even when
the app had long finished: summed over the suite's app tests, tens of seconds of wall time in
which nothing ran (docs/benchmarks.md, "Test suite", third pass).

A shorter step alone is not the same rule: a screen draws its pending refresh on a 1/60 s
timer, and what waits for that frame (``call_after_refresh``: the transcript browser starts
counting compactions only once its list is drawn) does not use CPU until the timer fires. A
20 ms step covered that by its length; a 5 ms one ended before the frame and a test looked
at a screen whose worker had not started yet. So here idle is both: a 5 ms step with under a
twentieth of it in CPU, and nothing waiting for the next frame on the current screen (no
layout, repaint or recompose pending, no dirty widget, no callback waiting for the refresh).
That is a condition on the app's own state, stricter than the step's length was. What a test
waits for on purpose (workers, a reload, a poll) it still waits for with ``settle`` or an event.

Animations are off in the apps tests start (``TEXTUAL_ANIMATIONS=none``, as a person may set
it): the tab strip's underline slides for ~0.3 s after each tab change, redrawing every frame,
so the wait above could not see an idle app until it stopped — 310 of the 811 steps the 80×24
key test slept. What a test checks is where the underline ends, which is the same either way.
An app that is closing draws no further frame, so nothing is pending for it (a pause after
ctrl+q used to wait its whole second).
"""

from __future__ import annotations

from asyncio import sleep
from time import monotonic, process_time

import textual._wait as textual_wait
import textual.app as textual_app
import textual.constants as textual_constants
import textual.pilot as textual_pilot
from textual._context import active_app

STEP_S = 1 / 200
QUIET_CPU_S = STEP_S / 20


def frame_pending() -> bool:
    """Whether the active app's current screen has something waiting for its next frame."""
    app = active_app.get(None)
    if app is None or app._exit:  # an app that is closing draws no further frame
        return False
    try:
        screen = app.screen
    except Exception:  # noqa: BLE001 - no screen yet, or the app is closing: nothing to draw
        return False
    return bool(screen._layout_required or screen._scroll_required or screen._repaint_required
                or screen._recompose_required or screen._dirty_widgets or screen._callbacks)


async def wait_for_idle(min_sleep: float = STEP_S, max_sleep: float = 1) -> None:
    """Textual's ``wait_for_idle`` (same arguments and bound), with the idle condition above."""
    start = monotonic()
    while True:
        cpu = process_time()
        await sleep(STEP_S)
        elapsed = monotonic() - start
        if elapsed >= max_sleep:
            return
        if elapsed > min_sleep and process_time() - cpu < QUIET_CPU_S and not frame_pending():
            return


def pytest_configure() -> None:
    textual_constants.TEXTUAL_ANIMATIONS = "none"  # read by every App as it starts
    for module in (textual_wait, textual_app, textual_pilot):
        module.wait_for_idle = wait_for_idle  # type: ignore[attr-defined]
