"""Textual's Footer, composed once per change of keys rather than once per focus move.

Two costs of the stock footer dominate a screen's start (issue 18, measured with
pyinstrument on ``inspector FILE``): each key's ``compact`` starts True and is then bound to
the footer's False, so every key restyles twice after it mounts (three stylesheet passes per
key, ~50 keys); and every focus change asks for a recompose after the next refresh, so the
focus moves of a starting screen rebuild all keys several times. Here each key is born with
the footer's ``compact`` value and class, and recomposes asked for before the last one ran
collapse into one. The keys shown, their order and their look are the stock footer's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.screen import Screen


class KeysFooter(Footer):
    _recompose_pending = False

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # the keys bound to the footer's compact take its value; the palette key is not
                # bound and keeps FooterKey's default (True), as in the stock footer
                compact = True if widget.has_class("-command-palette") else self.compact
                widget.set_reactive(FooterKey.compact, compact)  # no watcher runs: no restyle
                widget.set_class(compact, "-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._recompose_pending:
            self._recompose_pending = True
            self.call_after_refresh(self._recompose_now)

    async def _recompose_now(self) -> None:
        self._recompose_pending = False
        await self.recompose()
