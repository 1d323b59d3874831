"""The top line: where you are (store, session, versions) and what needs attention."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Static

from inspector.ui.safe import markup, one_line

if TYPE_CHECKING:  # the badges' module (drift and survival rules) loads after the first paint
    from inspector.services.overview import Badges
    from inspector.services.sessions import SessionSummary


def _middle_cut(name: str, width: int) -> str:
    """A long file name keeps its start and its end (the suffix and a digest tell stores apart),
    so the session's title after it is still on screen at 80 columns."""
    if len(name) <= width:
        return name
    keep = width - 1
    return name[:keep - keep // 2] + "…" + name[-(keep // 2):]


class HeaderBar(Static):
    """Store › session, then ``ctx vN · goal rN`` and badges (glyph + word, so it reads without colour)."""

    def __init__(self, store_path: Path, read_only: str | None = None, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.store_path = store_path
        self.read_only = read_only  # why the store can only be read, or None
        self.session: SessionSummary | None = None
        self.badges: Badges | None = None
        self.sessions = 0  # how many the store holds: below 140 columns the sessions list starts hidden

    def show(self, session: SessionSummary | None, badges: Badges | None = None) -> None:
        self.session = session
        self.badges = badges
        self.update(self._content())

    def count_sessions(self, n: int) -> None:
        if n != self.sessions:
            self.sessions = n
            self.refresh_content()

    def refresh_content(self) -> None:
        self.update(self._content())

    def _reviewer(self) -> Content:
        who = getattr(self.app, "reviewer", None)
        return (markup("[dim]as[/] [b]$w[/]", w=who) if who
                else markup("[dim]as ? (asked at the first write)[/]"))

    def _content(self) -> Content:
        """Two lines, each cut with "…" rather than wrapped: where you are, then what needs
        attention — the badges first, so an 80-column terminal still shows drift and loss."""
        where = [markup("[b]Context Inspector[/b] — $store", store=_middle_cut(self.store_path.name, 32))]
        if self.read_only:
            where.append(markup(" [$warning]🔒 read-only[/]"))
        s = self.session
        if s is None:
            return Content("").join(where) + Content("   ") + self._reviewer()
        if self.sessions > 1:  # an inspect-ai log of 10 samples opened at 80 columns showed one, and no sign of the rest;
            # on the first line, before the title: at the end of the badges' line it was cut off (review-14)
            # short, so a short title and the session's id still fit at 80 columns
            where.append(markup(" [dim]· $n sessions (s)[/]", n=f"{self.sessions:,}"))
        where.append(markup(" › [b]$title[/b] ($id)", title=one_line(s.title or s.id), id=one_line(s.id)))
        state = self._badges()
        state.append(markup("ctx v$cv · goal r$gr", cv=str(s.context_version), gr=str(s.goal_revision)))
        state.append(self._reviewer())
        if s.continued_from:
            state.append(markup("[$accent]↩ continued from $f[/]", f=s.continued_from))
        return Content("").join(where) + Content("\n") + Content("   ").join(state)

    def _badges(self) -> list[Content]:
        b = self.badges
        if b is None:
            return [markup("[dim]checking…[/dim]")]
        parts: list[Content] = []
        if b.drift:
            parts.append(markup("[$error]⚠ drift $n[/]", n=str(b.drift)))
        if b.not_judged:  # the verdict is "?" (or more than drift failed): say how many, never a bare nothing
            parts.append(markup("[$accent]? $n not judged[/]", n=str(b.not_judged)))
        for code, n in sorted(b.protocol.items()):
            parts.append(markup("[$error]⚠ $n $code[/]", n=str(n), code=code))
        if b.survival:
            parts.append(markup("[$accent]∴ $s[/]", s=b.survival))
        if b.pending_candidates:
            parts.append(markup("[$warning]◷ $n pending candidate$s[/]",
                                n=str(b.pending_candidates), s="s" if b.pending_candidates > 1 else ""))
        if b.pending_state:
            parts.append(markup("[$warning]◌ $n pending record$s[/]",
                                n=str(b.pending_state), s="s" if b.pending_state > 1 else ""))
        if b.unknown_actions:
            parts.append(markup("[$accent]? $n unknown action$s[/]",
                                n=str(b.unknown_actions), s="s" if b.unknown_actions > 1 else ""))
        return parts
