"""Detail text whose ids, hashes and paths are never broken in the middle of a word.

Textual wraps a line at spaces and folds a word longer than the width wherever the width ends:
at 100 columns a channel's detail is ~30 columns wide, and ``sha256:2219f666…`` or
``res:toolu_01Qs6kw2…`` came out as two or three pieces cut at arbitrary letters, which read
as different ids. Here a token (a run of printable ASCII without spaces: an id, a hash, a path,
a URL) too long for the width is folded after its own separators (``/ : _ - . = ,``), each
piece on its own line; a piece still too long (a hex digest) keeps its start and end around
``…``, and a last dim line says ``i`` shows the detail whole, in a dialog as wide as the
terminal. Text in other scripts (Chinese prose has no spaces) wraps as before.
"""

from __future__ import annotations

import re

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

# printable ASCII without spaces, with the typographic quotes a sentence puts around an id or path
# (“cmd/…/testenv.go”,): measured without them, a path that just fitted was split at a letter
TOKEN = re.compile(r"[!-~“”‘’]+")
SEGMENT = re.compile(r"[^/:_\-.=,]*[/:_\-.=,]?")  # up to and including the next separator
CUT_NOTE = "… cut to fit · i shows it whole"


Piece = tuple[int, int, int, int]  # token[a:b], then "…" + token[c:d] when c < d


def fold_token(token: str, width: int) -> tuple[list[Piece], bool]:
    """``token`` as pieces of at most ``width`` cells, broken after its separators; a segment
    longer than the width (a digest) keeps its start and end around ``…``. Returns the pieces and
    whether any was cut."""
    segments = [(m.start(), m.end()) for m in SEGMENT.finditer(token) if m.end() > m.start()]
    pieces: list[Piece] = []
    cut = False
    run: tuple[int, int] | None = None  # segments packed into the current piece
    for s, e in segments:
        if e - s > width:
            if run is not None:
                pieces.append((*run, 0, 0))
                run = None
            tail = (width - 1) // 2
            pieces.append((s, s + (width - 1 - tail), e - tail, e))
            cut = True
        elif run is None:
            run = (s, e)
        elif e - run[0] <= width:
            run = (run[0], e)
        else:
            pieces.append((*run, 0, 0))
            run = (s, e)
    if run is not None:
        pieces.append((*run, 0, 0))
    return pieces, cut


def fit_ids(content: Content, width: int, *, note: bool = True) -> tuple[Content, bool]:
    """``content`` with every over-long token folded at its separators (or cut around ``…``);
    ``note``: a last dim line says a token was cut and how to see it whole (details, not list rows)."""
    if width <= 1:
        return content, False
    lines: list[Content] = []
    any_cut = False
    for line in content.split("\n"):
        parts: list[Content] = []
        done = 0
        for m in TOKEN.finditer(line.plain):
            if m.end() - m.start() <= width:
                continue
            pieces, cut = fold_token(m.group(), width)
            any_cut = any_cut or cut
            at = m.start()
            folded = [line[at + a:at + b] + (Content("…") + line[at + c:at + d] if c < d else Content())
                      for a, b, c, d in pieces]
            parts += [line[done:at], Content("\n").join(folded)]
            done = m.end()
        parts.append(line[done:])
        lines.append(Content("").join(parts))
    fitted = Content("\n").join(lines)
    if any_cut and note:
        fitted = fitted + Content("\n") + Content.styled(CUT_NOTE, "dim")
    return fitted, any_cut


class WholeIds(Visual):
    """Detail text laid out for the width it is drawn at, ids kept whole (folded or cut, never split)."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self._cache: tuple[int, Content] | None = None

    def fitted(self, width: int) -> Content:
        if self._cache is None or self._cache[0] != width:
            self._cache = (width, fit_ids(self.content, width)[0])
        return self._cache[1]

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        return self.fitted(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.content.get_optimal_width(rules, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.fitted(width).get_height(rules, width)

    @property
    def plain(self) -> str:
        return self.content.plain

    def __str__(self) -> str:
        return self.content.plain


__all__ = ["WholeIds", "fit_ids", "fold_token"]
