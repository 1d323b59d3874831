"""First paint: one frame, drawn once the screen is settled, and work the person does not see after it.

Textual holds the terminal (``App.batch_update``) while the app's ``on_mount`` runs, and the
main screen is mounted and filled inside it, so a key typed at start waits for a screen that
can take it. But a screen inside the batch still renders every layout pass it makes (each
``_refresh_layout`` schedules a full compositor render), and Textual then throws the output
away because the batch is on: measured on a real transcript that was a whole-screen render
(~50 ms of CPU) drawn for nothing, and the first frame that reached the terminal was the
partial update of whatever changed after it (issue 18). :class:`DrawsAfterBatch` skips the
render while the batch is on and asks for one full repaint when it ends, so the first frame
written is the settled screen, whole.

A worker started while a screen is being filled runs in the same event loop; its first
synchronous stretch (loading the drift and survival rules for the badges, hashing a
followed transcript) would otherwise run before the frame is drawn and delay the first
paint. :func:`after_paint` waits for the frame; the worker is still registered at once, so
waiting for workers to finish (tests, ``workers.wait_for_complete``) includes it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen

    _Base = Screen[None]
else:
    _Base = object


class DrawsAfterBatch(_Base):
    """A screen mixin: until the screen's first frame, no compositor render while the app batches
    updates (nothing would be shown); one repaint of the whole screen once the batch is over.
    Later batches (a session read inside ``batch_update``) are left to Textual as they were."""

    _draw_deferred = False
    _drawn_once = False
    _not_held: asyncio.Event | None = None

    @property
    def not_held(self) -> asyncio.Event:
        """Clear while the first draw of this screen is held back by a batch; set once it is not."""
        if self._not_held is None:
            self._not_held = asyncio.Event()
            self._not_held.set()
        return self._not_held

    def _compositor_refresh(self) -> None:
        if self.app._batch_count and not self._drawn_once:
            self.not_held.clear()
            if not self._draw_deferred:
                self._draw_deferred = True
                self.app.call_later(self._draw_after_batch)  # the app's queue runs again after the batch
            return
        if self is self.app.screen:
            self._drawn_once = True
        super()._compositor_refresh()  # type: ignore[misc]

    def _draw_after_batch(self) -> None:
        if self.app._batch_count:  # another batch is open (none is, at start): look again shortly
            self.set_timer(1 / 60, self._draw_after_batch, name="draw after batch")
            return
        self._draw_deferred = False
        self.refresh()  # the whole screen, drawn by Textual's next update
        self.not_held.set()


async def after_paint(widget: Widget) -> None:
    """Return once the refresh pending for ``widget`` has been drawn. Textual runs the callbacks
    of ``call_after_refresh`` while a batch holds the screen back too, so on a screen that holds
    back its draws the wait is repeated until no batch is left and the draw was made."""
    screen = widget.screen
    while True:
        if isinstance(screen, DrawsAfterBatch):
            await screen.not_held.wait()
        drawn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        widget.call_after_refresh(lambda: drawn.done() or drawn.set_result(None))
        await drawn
        if not widget.app._batch_count and (not isinstance(screen, DrawsAfterBatch) or screen.not_held.is_set()):
            return
