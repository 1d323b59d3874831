"""Characters typed right behind the key that focused a text box land in the box.

Textual hands a key to the widget that has the focus when the app reads it, and runs a
binding only once the key has come back up to the app. So `/git` typed at once reached the
list that had the focus before `/` moved it to the search box: the letters were lost, and the
`t` even ran the screen's Timeline key. A printable key that comes back up while a text box
has the focus never went through that box (the box takes every printable key it is given),
so it is handed to the box, once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.widgets import Input

if TYPE_CHECKING:
    from textual.app import App

    _Base = App[None]
else:
    _Base = object


class RetypesIntoInput(_Base):
    async def _on_key(self, event: events.Key) -> None:
        focused = self.focused
        if isinstance(focused, Input) and event.is_printable and not getattr(event, "retyped", False):
            event.prevent_default()  # App's own handler (bindings, then key_ methods) is skipped
            event.stop()
            retyped = events.Key(event.key, event.character)
            retyped.retyped = True  # type: ignore[attr-defined]  # handed on once, never again
            focused.post_message(retyped)
