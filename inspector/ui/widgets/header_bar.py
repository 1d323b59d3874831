"""The top line: where you are (store, session, versions) and what needs attention."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Static

from inspector.ui.safe import markup

if TYPE_CHECKING:  # the badges' module (drift and survival rules) loads after the first paint
    from inspector.services.overview import Badges
    from inspector.services.sessions import SessionSummary


class HeaderBar(Static):
    """Store › session, then ``ctx vN · goal rN`` and badges (glyph + word, so it reads without colour)."""

    def __init__(self, store_path: Path, read_only: str | None = None, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.store_path = store_path
        self.read_only = read_only  # why the store can only be read, or None
        self.session: SessionSummary | None = None
        self.badges: Badges | None = None

    def show(self, session: SessionSummary | None, badges: Badges | None = None) -> None:
        self.session = session
        self.badges = badges
        self.update(self._content())

    def refresh_content(self) -> None:
        self.update(self._content())

    def _reviewer(self) -> Content:
        who = getattr(self.app, "reviewer", None)
        return (markup("   [dim]as[/] [b]$w[/]", w=who) if who
                else markup("   [dim]as ? (asked at the first write)[/]"))

    def _content(self) -> Content:
        parts = [markup("[b]Context Inspector[/b] — $store", store=self.store_path.name)]
        if self.read_only:
            parts.append(markup(" [$warning]🔒 read-only[/]"))
        s = self.session
        if s is None:
            return Content("").join(parts + [self._reviewer()])
        parts.append(markup(" › [b]$title[/b] ($id)   ctx v$cv · goal r$gr",
                                         title=s.title or s.id, id=s.id, cv=str(s.context_version),
                                         gr=str(s.goal_revision)))
        parts.append(self._reviewer())
        if s.continued_from:
            parts.append(markup("   [$accent]↩ continued from $f[/]", f=s.continued_from))
        b = self.badges
        if b is None:
            parts.append(markup("   [dim]checking…[/dim]"))
            return Content("").join(parts)
        if b.drift:
            parts.append(markup("   [$error]⚠ drift $n[/]", n=str(b.drift)))
        if b.survival:
            parts.append(markup("   [$accent]∴ $s[/]", s=b.survival))
        if b.pending_candidates:
            parts.append(markup("   [$warning]◷ $n pending candidate$s[/]",
                                n=str(b.pending_candidates), s="s" if b.pending_candidates > 1 else ""))
        if b.pending_state:
            parts.append(markup("   [$warning]◌ $n pending record$s[/]",
                                n=str(b.pending_state), s="s" if b.pending_state > 1 else ""))
        if b.unknown_actions:
            parts.append(markup("   [$accent]? $n unknown action$s[/]",
                                n=str(b.unknown_actions), s="s" if b.unknown_actions > 1 else ""))
        for code, n in sorted(b.protocol.items()):
            parts.append(markup("   [$error]⚠ $n $code[/]", n=str(n), code=code))
        return Content("").join(parts)
