"""Lines with a hanging indent: a line too long for the width continues under its text.

Textual wraps a long line back to column 0, so in a list of ``  ref  why`` lines the
continuation of one item reads as a new item (the Budget tab at 80 columns: "authoritative
until confirmed (16 tokens)" at the left edge under "state:artifact…"). Each row here is a
head (the indent and the ref) and a body; when the row does not fit, the body goes on under
the start of the body, or — when the head takes more than half the width — under the head's
text, four columns further in. The layout is redone for every width, so it follows resizes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

from inspector.ui.whole_ids import fit_ids

Row = tuple[Content, Content]  # (head, body); a row with an empty head is an ordinary line


def _lead(head: Content) -> int:
    return len(head.plain) - len(head.plain.lstrip(" "))


def fit_row(head: Content, body: Content, width: int) -> list[Content]:
    """One row laid out in ``width`` cells: the first line starts with the head, the others are indented."""
    if width <= 0 or head.cell_length + body.cell_length <= width:
        return [head + body]
    # an id, path or identifier longer than the lines it continues on is folded after its
    # separators or cut around "…" (whole_ids.py), never split at a letter
    cont = head.cell_length if head.cell_length <= width // 2 else _lead(head) + 4
    body = fit_ids(body, max(8, width - min(cont, max(0, width - 8))), note=False)[0]
    if not head.plain:
        indent = _lead(body)
        first, *_ = body.wrap(width) or [Content()]
        rest = body[len(first.plain):]
    else:
        indent = head.cell_length if head.cell_length <= width // 2 else _lead(head) + 4
        room = width - head.cell_length
        if room < 8:  # the head leaves no room: the body starts on the next line
            return [head.truncate(width, ellipsis=True), *_wrap(body, indent, width)]
        first, *_ = body.wrap(room) or [Content()]
        first = head + first
        rest = body[len(first.plain) - head.cell_length:]
    trimmed = rest.plain.lstrip(" \n")  # a fold's line break is where the first line ended
    rest = rest[len(rest.plain) - len(trimmed):]
    return [first, *(_wrap(rest, indent, width) if trimmed else [])]


def _wrap(body: Content, indent: int, width: int) -> list[Content]:
    indent = min(indent, max(0, width - 8))
    pad = Content(" " * indent)
    return [pad + line for line in body.wrap(max(1, width - indent))]


_LEAD = re.compile(r"^\s*(?:[✓✗✕■!·•?●○◌∅◷↳]\s+)?")  # indent and a leading glyph: the head of a line


def hanging(content: Content) -> HangingLines:
    """Lines already built as one text, each laid out with its indent and leading glyph
    (``✓``, ``•``, ``?``…) as its head: a long line continues under its own text."""
    rows: list[Row] = []
    for line in content.split("\n"):
        lead = _LEAD.match(line.plain)
        cut = lead.end() if lead else 0
        rows.append((line[:cut], line[cut:]))
    return HangingLines(rows)


_WIDTHS_KEPT = 4


class HangingLines(Visual):
    """Rows laid out with hanging indents for whatever width they are drawn at."""

    def __init__(self, rows: Sequence[Row]) -> None:
        self.rows = list(rows)
        # The rows fitted per width, the last few kept: a list lays its options out at two
        # widths in turn (with and without its scroll bar), and one kept width re-fitted
        # every option at each switch (1,300 findings on a 1,000-generation Drift tab).
        self._cache: dict[int, Content] = {}

    def fitted(self, width: int) -> Content:
        found = self._cache.get(width)
        if found is None:
            if len(self._cache) >= _WIDTHS_KEPT:
                self._cache.clear()
            lines = [line for head, body in self.rows for line in fit_row(head, body, width)]
            found = self._cache[width] = Content("\n").join(lines)
        return found

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        return self.fitted(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return max((h.cell_length + b.cell_length for h, b in self.rows), default=0)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.fitted(width).get_height(rules, width)

    @property
    def plain(self) -> str:
        """The text without a width (for tests and copying)."""
        return "\n".join((h + b).plain for h, b in self.rows)

    def __str__(self) -> str:
        return self.plain


class CappedLine(HangingLines):
    """One row of a list whose value may be a whole prompt: at most ``max_lines`` lines, the value
    cut with "…" so its ``tail`` (version, status) still ends the row. A real transcript's first
    goal took 9 lines of Protected state at 120×35 and pushed every other record down; the whole
    value stays in the detail pane when the row is highlighted."""

    def __init__(self, head: Content, value: Content, tail: Content, max_lines: int = 3) -> None:
        super().__init__([(head, value + tail)])
        self.head, self.value, self.tail, self.max_lines = head, value, tail, max_lines

    def fitted(self, width: int) -> Content:
        found = self._cache.get(width)
        if found is None:
            if len(self._cache) >= _WIDTHS_KEPT:
                self._cache.clear()
            lines = fit_row(self.head, self.value + self.tail, width)
            if len(lines) > self.max_lines:
                lines = self._cut(width)
            found = self._cache[width] = Content("\n").join(lines)
        return found

    def _cut(self, width: int) -> list[Content]:
        """The longest start of the value that, with "…" and the tail, fits in ``max_lines``."""
        low, high = 0, len(self.value.plain)
        best = fit_row(self.head, Content("…") + self.tail, width)
        while low < high:
            mid = (low + high + 1) // 2
            lines = fit_row(self.head, self.value[:mid].rstrip() + Content("…") + self.tail, width)
            if len(lines) <= self.max_lines:
                low, best = mid, lines
            else:
                high = mid - 1
        return best[:self.max_lines]


__all__ = ["CappedLine", "HangingLines", "Row", "fit_row", "hanging"]
