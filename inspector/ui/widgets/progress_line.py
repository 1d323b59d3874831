"""A progress bar for anything that takes longer than half a second (verify, survival over many
generations, ...): it appears only after ``SHOW_AFTER_S``, so quick work never flickers, and says
what is being done and how far it got (issue 15: ``v`` ran for seconds with no sign of life).

Use ``with progress.task("Verifying the store") as step: ... step(done, total)``.

The label and the bar are mounted by the first task, not with the screen: the line is hidden
until then, and the first screen has fewer widgets to mount and style (issue 18: first paint).

The line is shown only while a task is open. Textual's ``set_timer`` does not call its callback
when it fires: it queues it on the widget (``call_next``), so on a loaded machine the "show"
queued at 0.5 s ran after the task had ended and hidden the line, and "Survival of each summary
generation … 100%" stayed on screen for good (a snapshot flake under load, and a person on a
slow machine saw it too). Each task's "show" now looks whether a task is still open.

It is drawn over the keys footer (its own layer, docked at the bottom: ``MainScreen`` lists the
layer), not in a row of its own: a row taken and given back made the channels one row shorter
for as long as the work ran, their lists scrolled to keep the cursor in sight and stayed
scrolled, so how the screen settled depended on how slow the machine was.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar

SHOW_AFTER_S = 0.5


class ProgressLine(Horizontal):
    DEFAULT_CSS = """
    ProgressLine { height: 1; display: none; background: $panel; padding: 0 1; dock: bottom; layer: progress; }
    ProgressLine.-running { display: block; }
    ProgressLine Label { width: auto; padding-right: 1; color: $accent; }
    ProgressLine ProgressBar { width: 1fr; }
    """

    _open_tasks = 0  # tasks begun and not yet ended (two may overlap: verify while survival runs)

    def _show_if_open(self) -> None:
        if self._open_tasks:
            self.add_class("-running")

    def _parts(self) -> tuple[Label, ProgressBar]:
        """The label and the bar, mounted on first use (they are in the DOM at once; the mount
        itself completes with the next message round)."""
        if not self.query(ProgressBar):
            self.mount(Label("", id="progress-label"), ProgressBar(id="progress-bar", show_eta=False))
        return self.query_one(Label), self.query_one(ProgressBar)

    @contextmanager
    def task(self, label: str) -> Iterator[Callable[[int, int], None]]:
        started = time.monotonic()
        text, bar = self._parts()
        text.update(label)
        bar.update(total=None, progress=0)
        self._open_tasks += 1
        timer = self.set_timer(SHOW_AFTER_S, self._show_if_open)  # queued when it fires: it may run late

        def step(done: int, total: int) -> None:
            bar.update(total=max(total, 1), progress=done)
            if time.monotonic() - started >= SHOW_AFTER_S:
                self._show_if_open()

        try:
            yield step
        finally:
            timer.stop()
            self._open_tasks -= 1
            if not self._open_tasks:
                self.remove_class("-running")
