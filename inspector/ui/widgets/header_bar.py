"""The top lines: where you are (store, session), then what needs attention and the versions.

The badges' line never loses a badge to "…" (flow-seven): at 80 columns the survival count's
"· 1 untrusted not counted" pushed "◷ 8 pending candidates" off the demo's line, and at 120
columns a real transcript's line lost the reviewer's name. Each badge has a short form (same
glyph, count and meaning: "◷ 8 pending cand.", "∴ gen 3 1/5 kept · 1 not counted"). The badges
take as few lines as they fit in (a third at most), wrapped between badges, never inside one:
full forms when they fit in that many lines, else short forms, each widened back to its full
form while its line still fits. Only the first line — the store's and the session's names — is
cut with "…"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.widgets import Static

from inspector.domain.badge_words import counted_badge
from inspector.ui.safe import markup, one_line

if TYPE_CHECKING:  # the badges' module (drift and survival rules) loads after the first paint
    from inspector.services.overview import Badges
    from inspector.services.sessions import SessionSummary

Badge = tuple[Content, Content]  # (full form, short form)
# The tab that lists a "?" warning, by the warning's ``where`` (Badges.not_judged_in): the Drift tab
# lists drift's (and survival's too, under the latest generation), the Survival tab the facts survival
# could not judge or that need not be restated, the others the acts an imported file claimed.
WARNINGS_OPEN = {"drift": "focus_drift", "survival": "focus_survival", "candidate": "focus_candidates",
                 "handoff": "focus_handoffs", "deletion_request": "focus_deletions", "action": "focus_actions",
                 "rules": "focus_actions"}
SEP, SHORT_SEP = "   ", "  "
BADGE_LINES = 3  # at most; a last one that still does not fit is cut (the tabs count the same things)


def _width(parts: list[Content], sep: str) -> int:
    return sum(p.cell_length for p in parts) + len(sep) * max(0, len(parts) - 1)


def _pack(parts: list[Content], sep: str, width: int, most: int) -> list[list[Content]]:
    lines: list[list[Content]] = [[]]
    for part in parts:
        if lines[-1] and _width([*lines[-1], part], sep) > width and len(lines) < most:
            lines.append([])
        lines[-1].append(part)
    return lines


def _widened(line: list[Content], badges: list[Badge], width: int) -> list[Content]:
    """A line of short forms with each badge, in order, given its full form while the line fits."""
    full = {id(s): f for f, s in badges}
    out = list(line)
    for i, part in enumerate(out):
        wider = full.get(id(part), part)
        if _width([*out[:i], wider, *out[i + 1:]], SHORT_SEP) <= width:
            out[i] = wider
    return out


def fit_badges(badges: list[Badge], width: int) -> list[Content]:
    """The badges' lines at ``width`` cells, in as few lines as they fit in — full forms when
    they fit in that many, else the short ones — wrapped between badges, never inside one; past
    BADGE_LINES the last line is cut."""
    if width <= 0:
        return [Content(SEP).join(f for f, _ in badges)]
    for most in range(1, BADGE_LINES + 1):
        for sep, parts in ((SEP, [f for f, _ in badges]), (SHORT_SEP, [s for _, s in badges])):
            lines = _pack(parts, sep, width, most)
            if all(_width(line, sep) <= width for line in lines):
                if sep == SHORT_SEP:
                    lines = [_widened(line, badges, width) for line in lines]
                return [Content(sep).join(line) for line in lines]
    return [Content(SHORT_SEP).join(line) for line in _pack([s for _, s in badges], SHORT_SEP, width, BADGE_LINES)]


def _middle_cut(name: str, width: int) -> str:
    """A long file name keeps its start and its end (the suffix and a digest tell stores apart),
    so the session's title after it is still on screen at 80 columns."""
    if len(name) <= width:
        return name
    keep = width - 1
    return name[:keep - keep // 2] + "…" + name[-(keep // 2):]


class HeaderBar(Static):
    """Store › session, then ``ctx vN · goal rN`` and badges (glyph + word, so it reads without colour).

    A click on a badge opens what it counts, as a click on a tab does (flow-ten: a new user clicks
    "⚠ drift 4" first): drift → Drift, the "?" warnings → the first tab that lists them (Drift for
    drift's, Survival for survival's alone: WARNINGS_OPEN), survival → Survival, pending candidates
    → Candidates, pending records → Protected state, unknown actions → Actions, a protocol problem →
    the Timeline. The badges keep their colours (no link underline): they look as they did."""

    def __init__(self, store_path: Path, read_only: str | None = None, *, older: Callable[[], Any] | None = None,
                 **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        # an older store's held upgrade (store/held_upgrade.py), read at each redraw: gone once an act made it
        self.older = older
        self.auto_links = False  # a badge keeps its colour: no link colour or underline over it
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

    def on_resize(self) -> None:
        self.update(self._content())  # the badges' lines are laid out for the width
        self.call_after_refresh(self.refresh_content)  # the screen's breakpoint class (sessions list shown or not)

    def _room(self) -> int:
        width = self.content_size.width
        return width if width > 0 else max(0, self.app.size.width - 2)  # before the first layout: the padding

    def _reviewer(self) -> Badge:
        who = getattr(self.app, "reviewer", None)
        if who:
            said = markup("[dim]as[/] [b]$w[/]", w=who)
            return said, said
        return markup("[dim]as ? (asked at the first write)[/]"), markup("[dim]as ?[/]")

    def _content(self) -> Content:
        """Where you are (one line, cut with "…"), then what needs attention — the badges first,
        laid out for the width so none is cut (:func:`fit_badges`)."""
        where = [markup("[b]Context Inspector[/b] — $store", store=_middle_cut(self.store_path.name, 32))]
        if self.read_only:
            where.append(markup(" [$warning]🔒 read-only[/]"))
        s = self.session
        if s is None:
            return Content("").join(where) + Content("   ") + self._reviewer()[0]
        title = markup(" › [b]$title[/b] ($id)", title=one_line(s.title or s.id), id=one_line(s.id))
        if self.sessions > 1:  # an inspect-ai log of 10 samples opened at 80 columns showed one, and no sign of the rest;
            # on the first line, before the title: at the end of the badges' line it was cut off (review-14)
            where.append(self._sessions_hint(Content("").join([*where, title]).cell_length))
        where.append(title)
        state = self._badges()
        survival = self._survival()
        versions = (str(s.context_version), str(s.goal_revision))
        said = markup("ctx v$cv · goal r$gr", cv=versions[0], gr=versions[1])
        state.append((said, said))
        held = self.older() if self.older is not None else None
        if held is not None:  # at 80×24 the open's notice was replaced by the next one at once: said here too
            state.append((markup("[$warning]older store format $b: your first change upgrades it[/]", b=str(held.before)),
                          markup("[$warning]older format $b[/]", b=str(held.before))))
        state.append(self._reviewer())
        if s.continued_from:
            state.append((markup("[$accent]↩ continued from $f[/]", f=s.continued_from),
                          markup("[$accent]↩ from $f[/]", f=s.continued_from)))
        if survival is not None:  # last: the longest badge, a line of its own when it must be (see _survival)
            state.append(survival)
        return Content("\n").join([Content("").join(where), *fit_badges(state, self._room())])

    def _sessions_hint(self, beside: int) -> Content:
        """How many sessions the store holds and the key that lists them, said as the key lines say a
        key ("T conversation · f filter"): "· 6 sessions (s)" read as the old "session(s)" plurals
        (flow-nine). The long form when the whole first line fits, else the short one, so a short
        title and the session's id still fit at 80 columns."""
        n = f"{self.sessions:,}"
        full = markup(" [dim]· $n sessions ·[/] [b]s[/b] [dim]$does them[/]", n=n,
                      does="hides" if self._sessions_shown() else "lists")
        if beside + full.cell_length <= self._room():
            return full
        return markup(" [dim]· $n sessions · key[/] [b]s[/b]", n=n)

    def _sessions_shown(self) -> bool:
        """Whether the sessions list is on screen (``s`` then hides it): shown or hidden by ``s``, else
        shown from 140 columns (ui/layout.py's breakpoint classes, ui/inspector.tcss)."""
        screen = self.screen
        if not screen.query("#sessions"):
            return False
        if screen.has_class("-sessions-shown") or screen.has_class("-sessions-hidden"):
            return screen.has_class("-sessions-shown")
        return screen.has_class("-wide")

    def _survival(self) -> Badge | None:
        """The latest generation's survival count, the header's longest badge ("∴ gen 3 1/5 kept, 2 lost,
        1 not restated, 1 not judged · 1 not counted"). Laid out last, after the versions and the
        reviewer: in the middle it pushed the badges after it onto a third line at 120 columns (the
        lines break between badges in order), and when it cannot share a line it takes one alone."""
        b = self.badges
        if b is None or not b.survival:
            return None
        link = "[@click=screen.focus_survival]"
        short = markup(link + "[$accent]∴ $s[/][/]", s=b.survival_short or b.survival)
        if short.cell_length > self._room() and b.survival_tight:  # else cut with "…", maybe inside a number
            short = markup(link + "[$accent]∴ $s[/][/]", s=b.survival_tight)
        return markup(link + "[$accent]∴ $s[/][/]", s=b.survival), short

    def _badges(self) -> list[Badge]:
        b = self.badges
        if b is None:
            checking = markup("[dim]checking…[/dim]")
            return [(checking, checking)]
        parts: list[Badge] = []

        def both(full_form: str, short_form: str, opens: str, **values: str) -> None:
            link = f"[@click=screen.{opens}]"  # a constant action: values never reach the markup's tags
            parts.append((markup(link + full_form + "[/]", **values), markup(link + short_form + "[/]", **values)))

        if b.drift:
            both("[$error]⚠ drift $n[/]", "[$error]⚠ drift $n[/]", "focus_drift", n=f"{b.drift:,}")
        plural = {True: "s", False: ""}
        if b.survival_lost:  # check's ✗ survival findings: a confirmed fact the latest summary lost
            both("[$error]✗ $n fact$s lost[/]", "[$error]✗ $n lost[/]", "focus_survival",
                 n=f"{b.survival_lost:,}", s=plural[b.survival_lost > 1])
        if b.rules_broken:  # check's ✗ action_against_rule: a tool call did what a confirmed rule forbids
            both("[$error]✗ $n call$s against a rule[/]", "[$error]✗ $n rule$s broken[/]", "focus_actions",
                 n=f"{b.rules_broken:,}", s=plural[b.rules_broken > 1])
        if b.not_judged:  # the verdict is "?" (or more than drift failed): say how many, never a bare nothing
            # it counts warnings (check's "!" lines), one of which may name three names: "? 1 not
            # judged" read as one thing not judged (flow-eight), so it says what it counts
            opens = next((WARNINGS_OPEN[w] for w in b.not_judged_in if w in WARNINGS_OPEN), "focus_drift")
            both("[$accent]? $n warning$s: not judged in full[/]", "[$accent]? $n warning$s[/]", opens,
                 n=f"{b.not_judged:,}", s=plural[b.not_judged > 1])
        for code, n in sorted(b.protocol.items()):  # in words, not the code: "⚠ 2 lines_unread" (flow-nine)
            both("[$error]⚠ $said[/]", "[$error]⚠ $brief[/]", "focus_timeline", said=counted_badge(code, n),
                 brief=counted_badge(code, n, short=True))
        if b.pending_candidates:
            both("[$warning]◷ $n pending candidate$s[/]", "[$warning]◷ $n pending cand.[/]", "focus_candidates",
                 n=f"{b.pending_candidates:,}", s=plural[b.pending_candidates > 1])
        if b.pending_state:
            both("[$warning]◌ $n pending record$s[/]", "[$warning]◌ $n pending rec.[/]", "focus_channel('state')",
                 n=f"{b.pending_state:,}", s=plural[b.pending_state > 1])
        if b.stale_state:  # left behind the owner's correction: confirm refuses them, only n decides them
            both("[$warning]◌ $n stale proposal$s: reject only[/]", "[$warning]◌ $n stale[/]",
                 "focus_channel('state')", n=f"{b.stale_state:,}", s=plural[b.stale_state > 1])
        if b.unknown_actions:
            both("[$accent]? $n unknown action$s[/]", "[$accent]? $n unknown act.[/]", "focus_actions",
                 n=f"{b.unknown_actions:,}", s=plural[b.unknown_actions > 1])
        return parts
