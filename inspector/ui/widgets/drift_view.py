"""The Drift tab: findings per generation (latest first), the tool results a micro-compaction
cleared from the model's context (fresh-eyes F9: a timeline event only, no view said which
results the model lost), and the field timeline."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, ScrollableContainer
from textual.content import Content, Span
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from inspector.domain.drift import FieldTimeline, Finding
from inspector.domain.plurals import counted as _n
from inspector.domain.unreadable import headline
from inspector.services.cleared import ClearedResult
from inspector.ui.hanging import HangingLines
from inspector.ui.safe import markup, safe

SHOWN_GENERATIONS = 50  # the tab lists the latest ones; older ones are named, not hidden
SHOWN_CLEARED = 60  # cleared results listed per micro-compaction; the rest are counted (check --json lists all)
SURVIVAL_ROW = "survival:"  # the id of a row of check's survival verdict, before its index
ABSENT = "cleared-absent:"  # the id of a compaction's counted row of results not in this log, before its evt:N
# what to do about it, not only that there is none (a Gemini or inspect-ai session has no compaction)
NO_GENERATION = "[dim]no summary generations: R rebuilds one from the raw log, every line cited[/]"
COMPUTING = "[dim]computing… (drift of each generation against the raw log)[/]"
CELL = {"kept": ("✓", "$success"), "rewritten": ("≠", "$error"), "missing": ("∅", "$error"),
        "after": ("·", "dim")}  # first said after the generation's range: not judged there


def timeline_content(t: FieldTimeline) -> Content:
    """One row per key: its marks first, one column per generation, then the key; no trailing
    spaces. At 80 columns the pane is about 30 wide and at 120 about 45: the keys an import
    proposes are slugs of the rule with a hash (``constraint.never-push-to-main-open-a-pr-aga.e31fdb``,
    50 characters), and with the key first its marks sat past the pane's edge, a "field timeline"
    of names with no ✓ or ∅ in sight (newuser-18). The marks are what the pane is for; a key cut at
    the edge still reads, and the findings beside it name it whole. Wider than the pane (many
    generations), the rows stay whole and the pane scrolls."""
    if not t.keys:
        # Pending records (all an importer proposes) are not yet protected: say so, or a reviewer
        # beside a Protected state full of ◌ records reads "no keys" as "nothing to check".
        # The pane never wraps (timeline rows stay whole), so the sentence is cut into lines
        # that fit the pane at 80 columns (about 28 wide).
        return markup("[dim]nothing confirmed to follow:\npending records (◌) join\nonce confirmed; Survival\n"
                      "shows what each generation\nkept of them[/]")
    cell = max((len(f"g{g}") for g in t.generations), default=2) + 1
    head = Content("".join(f"g{g}".ljust(cell) for g in t.generations).rstrip())
    rows = [markup("[b]field timeline[/b]"), markup("✓ kept ≠ rewritten ∅ missing")]
    if any(cell == "after" for row in t.cells.values() for cell in row.values()):
        rows.append(markup("[dim]· said after its range[/]"))  # a line of its own: the pane is ~28 wide at 80
    rows.append(head)
    gap = " " * (cell - 1)
    for key in t.keys:
        rows.append(_row([t.cells[key][g] for g in t.generations], gap, safe(key)))
    return Content("\n").join(rows)


def _cleared_section(options: OptionList, cleared: list[ClearedResult], opened: set[str]) -> None:
    """One heading per micro-compaction, then each result it cleared (the call's and result's events).

    Results the log does not hold (called before the file begins) all read "not in this log":
    the real 7662d755 compaction listed 42 such rows, one screen of the same sentence. Two or
    more are one counted row that Enter opens to their call ids (``opened``: the compactions
    whose row is open) and closes again."""
    by_event: dict[str, list[ClearedResult]] = {}
    for c in cleared:
        by_event.setdefault(c.at, []).append(c)
    for at, items in by_event.items():
        options.add_option(Option(markup("[b]$at micro-compaction: $n cleared from the model's context[/b]",
                                         at=at, n=_n(len(items), "tool result")), disabled=True))
        absent = [c for c in items if not (c.call or c.result)]
        rows = [c for c in items if c.call or c.result] if len(absent) > 1 else items
        # The rows can be highlighted (no finding behind them): a disabled last row is one the
        # cursor never reaches, so End and ↓ stopped at the last finding and the section stayed
        # below the fold for a keyboard user (fresh-eyes, session 11).
        for n, c in enumerate(rows[:SHOWN_CLEARED]):
            options.add_option(Option(markup("  [$warning]◌[/] $line", line=c.line()), id=f"cleared:{at}:{n}"))
        if len(rows) > SHOWN_CLEARED:
            options.add_option(Option(markup("  [dim]$n more (inspector check --json: cleared_results)[/]",
                                             n=str(len(rows) - SHOWN_CLEARED)), id=f"cleared:{at}:more"))
        if len(absent) > 1:
            _absent_rows(options, at, absent, at in opened)


def _absent_rows(options: OptionList, at: str, absent: list[ClearedResult], opened: bool) -> None:
    """The counted row of the results not in this log, and their call ids under it when open."""
    hint = "enter: close" if opened else "enter: list them"
    # Wider than the column (80 wide), the sentence goes on under itself, not at column 0.
    options.add_option(Option(HangingLines([(markup("  [$warning]$mark[/] ", mark="▾" if opened else "▸"), markup(
        "$n tool results cleared, not in this log (called before this file begins) [dim]($hint)[/]",
        n=str(len(absent)), hint=hint))]), id=f"{ABSENT}{at}"))
    if not opened:
        return
    for n, c in enumerate(absent[:SHOWN_CLEARED]):
        options.add_option(Option(markup("    [$warning]◌[/] $id", id=c.call_id), id=f"cleared:{at}:absent:{n}"))
    if len(absent) > SHOWN_CLEARED:
        options.add_option(Option(markup("    [dim]$n more (inspector check --json: cleared_results)[/]",
                                         n=str(len(absent) - SHOWN_CLEARED)), id=f"cleared:{at}:absent:more"))


def _row(cells: list[str], gap: str, label: str) -> Content:
    """One key's row built as one string and its spans: adding a cell at a time copied the row
    so far at every cell (1,000 generations × 84 keys took ~2 minutes to open the tab)."""
    step = 1 + len(gap)
    spans = [Span(i * step, i * step + 1, CELL[state][1]) for i, state in enumerate(cells)]
    marks = gap.join(CELL[state][0] for state in cells)
    return Content(f"{marks}{gap}{label}" if cells else label, spans)


class DriftView(Horizontal):
    def compose(self) -> ComposeResult:
        yield OptionList(Option(markup(COMPUTING), disabled=True), id="drift-findings")
        with ScrollableContainer(id="drift-timeline"):
            yield Static("", id="drift-timeline-text")

    def computing(self) -> None:
        """While a session's drift is read (seconds on a large log): said, not an empty tab."""
        options = self.query_one("#drift-findings", OptionList)
        options.clear_options()
        options.add_option(Option(markup(COMPUTING), disabled=True))
        self.query_one("#drift-timeline-text", Static).update("")

    def load(self, findings: dict[int, list[Finding]], timeline: FieldTimeline,
             cleared: list[ClearedResult] | None = None) -> None:
        self.findings = {f"{g}:{i}": f for g, fs in findings.items() for i, f in enumerate(fs)}
        self.generations, self.cleared, self.opened = findings, cleared or [], set[str]()
        self.survival_said: list[dict[str, Any]] = []
        self._fill()
        options = self.query_one("#drift-findings", OptionList)
        first = next((i for i in range(options.option_count) if not options.get_option_at_index(i).disabled), None)
        if first is not None:
            options.highlighted = first
        self.query_one("#drift-timeline-text", Static).update(timeline_content(timeline))

    def _fill(self) -> None:
        findings = self.generations
        options = self.query_one("#drift-findings", OptionList)
        options.clear_options()
        ordered = sorted(findings, reverse=True)
        for g in ordered[:SHOWN_GENERATIONS]:
            fs = findings[g]
            head = f"generation {g}: " + headline(fs)
            options.add_option(Option(markup("[b]$h[/b]", h=head), disabled=True))
            if g == ordered[0]:
                _survival_rows(options, getattr(self, "survival_said", []))
            for i, f in enumerate(fs):
                colour = "$warning" if f.severity == "warning" else "$error"
                # A sentence longer than the column goes on under itself, not at column 0 (ui/hanging.py).
                options.add_option(Option(HangingLines([
                    (Content("  "), markup(f"[{colour}]$c[/] [b]$k[/b]", c=f.code, k=f.key or "")),
                    (Content("    "), markup("[dim]$m[/]", m=f.message))]), id=f"{g}:{i}"))
        if len(ordered) > SHOWN_GENERATIONS:
            older = ordered[SHOWN_GENERATIONS:]
            hidden = sum(1 for g in older for f in findings[g] if f.severity == "finding")
            options.add_option(Option(markup(
                "[$warning]$n older generations not listed here ($h findings); inspector drift --generation G shows "
                "any of them[/]", n=str(len(older)), h=str(hidden)), disabled=True))
        if not findings:
            options.add_option(Option(markup(NO_GENERATION), disabled=True))
        _cleared_section(options, self.cleared, self.opened)

    def survival(self, said: list[dict[str, Any]]) -> None:
        """What check says of the latest generation's survival (services/survival_verdict.py),
        under its head: "no drift found" stood alone over a confirmed fact survival found lost."""
        self.survival_said = said
        options = self.query_one("#drift-findings", OptionList)
        keep = options.get_option_at_index(options.highlighted).id if options.highlighted is not None else None
        was_first = keep is not None and keep == _first_id(options)  # the cursor not moved yet
        self._fill()
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        first = next((i for i in range(options.option_count) if not options.get_option_at_index(i).disabled), None)
        # the cursor where the reviewer left it; on the first row it goes to the new first row, the
        # survival ✗ lines above the findings (they came in after): on the first finding, the list
        # stayed scrolled past them and the generation's heading at 80×24 (newuser-18)
        options.highlighted = ids.index(keep) if keep in ids and not was_first else first

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on the counted row of results not in this log opens it to their ids, or closes it."""
        oid = event.option.id or ""
        if event.option_list.id != "drift-findings" or not oid.startswith(ABSENT):
            return
        event.stop()
        at = oid[len(ABSENT):]
        self.opened ^= {at}
        options = event.option_list
        self._fill()
        options.highlighted = options.get_option_index(oid)
        if at in self.opened:  # the ids it opened come into view under it
            self.call_after_refresh(options.scroll_to_highlight, top=True)

    def selected(self) -> tuple[int, Finding | None] | None:
        """The highlighted finding and its generation; a survival row: the latest generation (``c``
        corrects it, as on a finding of it), with no finding of its own."""
        options = self.query_one("#drift-findings", OptionList)
        if options.highlighted is None:
            return None
        oid = options.get_option_at_index(options.highlighted).id
        if oid and oid.startswith(SURVIVAL_ROW) and self.generations:
            return max(self.generations), None
        if not oid or oid not in self.findings:
            return None
        return int(oid.split(":")[0]), self.findings[oid]


def _first_id(options: OptionList) -> str | None:
    return next((options.get_option_at_index(i).id for i in range(options.option_count)
                 if not options.get_option_at_index(i).disabled), None)


def _survival_rows(options: OptionList, said: list[dict[str, Any]]) -> None:
    """Check's survival findings (✗) and warnings (?) of the latest generation, one row each. Rows
    the cursor reaches: disabled, they were above the first finding the cursor starts on, and at
    80×24 the list opened scrolled past them with no key to go back up (newuser-18)."""
    for n, item in enumerate(said):
        bad = item["code"].startswith("fact_")
        what = item["key"] if bad else _n(len(item.get("keys", [])), "fact")  # the sentence below names them
        options.add_option(Option(HangingLines([
            (Content("  "), markup(f"[{'$error' if bad else '$warning'}]$c[/] [b]$k[/b] [dim](survival: Survival tab)[/]",
                                   c=item["code"], k=what)),
            (Content("    "), markup("[dim]$m[/]", m=item["message"]))]), id=f"{SURVIVAL_ROW}{n}"))
