"""Waiting for the frame on screen before doing work the person does not see yet.

A worker started while a screen is being filled runs in the same event loop; its first
synchronous stretch (loading the drift and survival rules for the badges, hashing a
followed transcript) would otherwise run before the frame is drawn and delay the first
paint (issue 18). The worker is still registered at once, so waiting for workers to
finish (tests, ``workers.wait_for_complete``) includes it.
"""

from __future__ import annotations

import asyncio

from textual.widget import Widget


async def after_paint(widget: Widget) -> None:
    """Return once the refresh pending for ``widget`` has been drawn."""
    drawn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    widget.call_after_refresh(lambda: drawn.done() or drawn.set_result(None))
    await drawn
