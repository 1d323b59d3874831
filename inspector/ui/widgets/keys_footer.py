"""The key line at the bottom of a screen: Textual's Footer drawn as one widget.

The stock Footer is a container of one ``FooterKey`` widget per key (25 on the main screen),
recomposed after every focus move: on the first screen that was a quarter of all widgets to
mount, style, lay out and cut the bottom line into, and it only appeared in a second frame,
after the first refresh (issue 18: first paint). This one draws the same line — each key and
its description with the footer's theme styles, disabled keys dim, the command palette key at
the right edge behind a thin bar; keys that do not fit are left out whole, and "… ? more" says
``?`` lists them all — from the screen's active bindings whenever it renders, so
the first frame already shows the keys of the widget that has the focus, and a focus move
only repaints one line. Clicking a key presses it, as on the stock footer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from textual import events
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen

PALETTE_BAR = "▏"


class Key(NamedTuple):
    key: str  # what pressing it sends (Binding.key)
    display: str  # how it is shown (App.get_key_display)
    description: str
    enabled: bool


class KeysFooter(Widget):
    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description", "footer-key--hover", "footer-key--bar"}
    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        text-overflow: clip;
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .footer-key--hover { color: $footer-key-foreground; background: $block-hover-background; }
        & > .footer-key--bar { color: $foreground 20%; }
    }
    """

    hovered: reactive[int | None] = reactive(None)  # index into the keys drawn last, under the mouse

    def __init__(self) -> None:
        super().__init__()
        self._spans: list[tuple[int, int, Key]] = []  # (start x, end x, key) as drawn last

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen:
            self.refresh()

    def keys(self) -> tuple[list[Key], Key | None]:
        """The keys shown (one per action, first binding wins, as the stock footer), and the palette key."""
        active = self.screen.active_bindings
        shown: dict[str, Key] = {}
        for _node, binding, enabled, _tooltip in active.values():
            if binding.show and binding.action not in shown:
                shown[binding.action] = Key(binding.key, self.app.get_key_display(binding), binding.description,
                                            enabled)
        palette = None
        if self.app.ENABLE_COMMAND_PALETTE and self.app.COMMAND_PALETTE_BINDING in active:
            _node, binding, enabled, _tooltip = active[self.app.COMMAND_PALETTE_BINDING]
            palette = Key(binding.key, self.app.get_key_display(binding), binding.description, enabled)
        return list(shown.values()), palette

    def render(self) -> Content:
        keys, palette = self.keys()
        key_style = self.get_visual_style("footer-key--key", partial=True)
        description_style = self.get_visual_style("footer-key--description", partial=True)
        hover_style = self.get_visual_style("footer-key--hover", partial=True)
        width = self.size.width
        tail = Content()
        if palette is not None:  # docked at the right: " ▏^p palette "
            tail = Content.assemble((PALETTE_BAR, self.get_visual_style("footer-key--bar", partial=True)),
                                    (palette.display, key_style), (f" {palette.description}", description_style), " ")
        room = max(0, width - tail.cell_length)
        parts: list[Content] = []
        spans: list[tuple[int, int, Key]] = []
        x = 0
        for index, key in enumerate(keys):
            hovered = index == self.hovered
            part = Content.assemble((f" {key.display} ", hover_style if hovered else key_style),
                                    (f"{key.description} " if key.description else "",
                                     hover_style if hovered else description_style))
            if not key.enabled:
                part = part.stylize("dim")
            spans.append((x, x + part.cell_length, key))
            parts.append(part)
            x += part.cell_length
        if x > room:  # only whole keys, then "… ? more": a key cut mid-word ("k Candidat") read as another
            more = Key("question_mark", "?", "more", True)
            marker = Content.assemble(("…", description_style), (" ? ", key_style), ("more ", description_style))
            while parts and x > room - marker.cell_length:
                x -= parts.pop().cell_length
                spans.pop()
            spans.append((x + 1, x + marker.cell_length, more))
            parts.append(marker)
        if palette is not None:
            spans.append((room, width, palette))
        self._spans = spans
        left = Content("").join(parts)
        return left.truncate(room, pad=True) + tail

    def _key_at(self, x: int) -> int | None:
        return next((i for i, (start, end, _) in enumerate(self._spans) if start <= x < end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self._key_at(event.x)

    def on_leave(self) -> None:
        self.hovered = None

    def on_click(self, event: events.Click) -> None:
        index = self._key_at(event.x)
        if index is None:
            return
        key = self._spans[index][2]
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()
