"""A Protected state row drawn on one line and built only when drawn: for sessions with thousands of records.

Textual's ``OptionList`` asks every option its height up front (``_update_lines``), and a
``CappedLine`` answers by wrapping its value, up to ten times for a long one (its "…" cut is a
binary search). With 20,001 pending records that took 57 s before the first paint and 107 s for
one key (newuser-19, "Not done" 1). In a list longer than ``LONG_LIST`` each row is one line, so
its height is known without any wrapping, and its text is made the first time it is drawn: only
the rows on screen cost anything. Every record is still an option, so the counts, the marks, the
cursor keys and ``ctrl+a`` run over all of them; the detail pane shows the highlighted one whole.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

LONG_LIST = 300  # more records than this: one line a row (a few screens of three-line rows at most before)


class OneLineRow(Visual):
    """The glyph, the value cut with "…" to fit, then the tail (version · status) kept whole."""

    def __init__(self, build: Callable[[], tuple[Content, Content, Content]],
                 short_tail: Callable[[], Content] | None = None) -> None:
        self._build = build  # (head, value, tail), made on first use
        self._short_tail = short_tail  # a tail for a narrow list (the glyph already says the status)
        self._parts: tuple[Content, Content, Content] | None = None
        self._line: tuple[int, Content] | None = None

    @property
    def parts(self) -> tuple[Content, Content, Content]:
        if self._parts is None:
            self._parts = self._build()
        return self._parts

    def line(self, width: int) -> Content:
        """The row at ``width`` cells: never more than one line."""
        if self._line is None or self._line[0] != width:
            head, value, tail = self.parts
            room = width - head.cell_length - tail.cell_length
            if value.cell_length <= room:
                line = head + value + tail
            elif room >= 8:
                line = head + value.truncate(room, ellipsis=True) + tail
            else:
                # too narrow for the whole tail beside the value (a 38-cell channel at 120 columns and
                # "v1 · pending · stale: reject only · marked"): the short one, which keeps "stale"
                short = self._short_tail() if self._short_tail is not None else tail
                room = width - head.cell_length - short.cell_length
                if room >= 8:
                    line = head + value.truncate(room, ellipsis=True) + short
                else:  # narrower still: the start of the row, cut
                    line = (head + value.truncate(8, ellipsis=True) + short).truncate(max(1, width), ellipsis=True)
            self._line = (width, line)
        return self._line[1]

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        return self.line(width).render_strips(width, 1, style, options)[:1]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return 1

    @property
    def plain(self) -> str:
        """The whole row without a width (for tests and copying)."""
        head, value, tail = self.parts
        return (head + value + tail).plain

    def __str__(self) -> str:
        return self.plain


__all__ = ["LONG_LIST", "OneLineRow"]
