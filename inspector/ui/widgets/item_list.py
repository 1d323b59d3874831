"""A list of things to decide (candidates, handoffs, deletions, sessions) that never surprises.

- ↑ at the top and ↓ at the bottom stay put: a wrapping cursor once opened the last row's
  review when the reviewer meant the first (issue 15, item 1).
- ``enter`` posts a semantic :class:`ItemList.Chosen` carrying the item's id, so screens do not
  decode option ids; each subclass has its own ``Chosen`` (``on_candidates_list_chosen``…).
- ``load`` keeps the cursor on an item by id (``keep``), not by row number, so a list that
  re-sorts after a decision still points at the item the reviewer was on.
"""

from __future__ import annotations

from textual import _widget_navigation
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class NoWrapOptionList(OptionList):
    """An option list whose cursor stops at either end instead of wrapping round."""

    def _step(self, direction: int) -> None:
        target = _widget_navigation.find_next_enabled_no_wrap(self.options, anchor=self.highlighted,
                                                              direction=direction)
        if target is not None:
            self.highlighted = target

    def action_cursor_up(self) -> None:
        self._step(-1)

    def action_cursor_down(self) -> None:
        self._step(1)


class ItemList(NoWrapOptionList):
    class Chosen(Message):
        def __init__(self, item_list: ItemList, item_id: str) -> None:
            super().__init__()
            self.item_list = item_list
            self.item_id = item_id

        @property
        def control(self) -> ItemList:
            return self.item_list

    def highlighted_id(self) -> str | None:
        index = self.highlighted
        return None if index is None else self.get_option_at_index(index).id

    def set_items(self, options: list[Option], empty: str | Option, keep: str | None = None) -> None:
        """Replace the items; the cursor goes to ``keep`` when it is still listed, else the first item."""
        self.clear_options()
        if not options:
            self.add_option(empty if isinstance(empty, Option) else Option(empty, disabled=True))
            return
        self.add_options(options)
        ids = [o.id for o in options]
        self.highlighted = ids.index(keep) if keep in ids else next(
            (i for i, o in enumerate(options) if not o.disabled), 0)

    def action_select(self) -> None:
        """enter (or a click): the screen's handler runs now rather than two messages later, so a
        key typed right behind enter (`k enter a` at typing speed) reaches the dialog enter opens,
        not the screen behind it (where `a` meant the Actions tab). Without a handler on the
        screen, the message is posted as before."""
        index = self.highlighted
        option = None if index is None else self.get_option_at_index(index)
        if option is None or option.disabled or not option.id:
            return
        chosen = type(self).Chosen(self, option.id)
        handler = getattr(self.screen, chosen.handler_name, None)
        if callable(handler):
            handler(chosen)
        else:
            self.post_message(chosen)

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list is self and event.option.id:
            event.stop()
            self.post_message(type(self).Chosen(self, event.option.id))
