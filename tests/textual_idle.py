"""Textual's pilot looks for an idle app in 5 ms steps instead of 20 ms ones.

``Pilot.press`` waits twice per key, and ``Pilot.pause`` once, in ``textual._wait.wait_for_idle``:
it sleeps one step, and ends when the process used under a twentieth of that step's CPU
(the app handled the key, its handlers and the database thread went quiet). Each wait is at
least one whole step, so with Textual's 20 ms a key cost at least 40 ms of sleeping even when
the app had long finished: summed over the suite's app tests, tens of seconds of wall time
in which nothing ran (docs/benchmarks.md, "Test suite", third pass).

The rule is the same with the shorter step (idle = under a twentieth of it used): a busy app
uses the whole step and is waited for as before; only the sleep after the app went quiet is
shorter. What a test waits for on purpose (workers, a reload, a poll) it waits for with
``settle`` or an event, never with this heuristic, and a loaded machine (where a descheduled
process looks idle at any step) already passes.
"""

from __future__ import annotations

import textual._wait as textual_wait

STEP_S = 1 / 200


def pytest_configure() -> None:
    textual_wait.SLEEP_GRANULARITY = STEP_S
    textual_wait.SLEEP_IDLE = STEP_S / 20
