"""The Survival tab: for each summary generation, which protected facts it kept.

Left, the generations (newest first) with their headline; right, the selected
generation's facts grouped by verdict — contradicted and missing first, since those are
what a reviewer acts on — each with its kind, whether it is confirmed or only proposed,
its sources and the sentence that decided it. Verdicts are exact rules; the words
"exact rule" say so.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.reactive import var
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from inspector.domain.survival_report import PART_NOTE, Tally, part
from inspector.services.survival import SurvivalReport
from inspector.ui.hanging import HangingLines, Row
from inspector.ui.safe import markup
from inspector.ui.widgets.drift_view import NO_GENERATION

COMPUTING = "[dim]computing… (which facts each generation kept)[/]"

GLYPH = {"contradicted": ("✗", "$error"), "missing": ("∅", "$error"), "unknown": ("?", "$accent"),
         "kept": ("✓", "$success")}
ORDER = ("contradicted", "missing", "unknown", "kept")


def _cut(text: str, limit: int) -> str:
    """At most ``limit`` characters, with "…" when cut (a fact's value was cut at 160 silently)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def report_content(report: SurvivalReport) -> HangingLines:
    """One generation's verdicts; each fact and its reason continue under their text when they
    do not fit (ui/hanging.py), not at the panel's left edge among the glyphs."""
    blank = Content()
    if report.result is None:
        return HangingLines([(blank, markup("[dim]no summary generation[/]"))])
    counts = report.result.counts
    covers = f"evt:{report.covers[0]}–evt:{report.covers[1]}" if report.covers else "the whole log"
    rows: list[Row] = [
        (blank, markup("[b]$h[/b]  (generation $g, $k, covers $c; exact rules, not a judge)",
                       h=report.headline(), g=str(report.generation), k=report.kind or "?", c=covers)),
        # two groups of two: at 80 columns the one line broke between "✓ kept" and its count
        *((blank, Content("  ".join(f"{GLYPH[v][0]} {v} {counts[v]}" for v in pair)))
          for pair in (ORDER[:2], ORDER[2:]))]
    by_kind = report.result.tally_by_kind  # the headline's parts: "evidence_ref: 0/1 kept, 1 not restated"
    if by_kind:
        rows.append((blank, markup("[dim]$t[/]", t="  ·  ".join(
            f"{kind}: {Tally(**c).brief()}" for kind, c in sorted(by_kind.items())))))
    if not report.verdicts:
        rows.append((blank, markup("[dim]no protected fact has a source inside this range[/]")))
    for verdict in ORDER:
        picked = [v for v in report.verdicts if v.verdict == verdict]
        if not picked:
            continue
        glyph, colour = GLYPH[verdict]
        rows += [(blank, blank), (blank, markup(f"[b {colour}]$g $v ($n)[/]", g=glyph, v=verdict, n=str(len(picked))))]
        for v in picked:
            label = "" if v.fact.status == "active" else f" [{v.fact.status}]"
            rows.append((markup(f"  [{colour}]$g[/] ", g=glyph),
                         markup("[b]$kind[/b] $val[dim]$lab — $src[/]", kind=v.fact.kind, val=_cut(v.fact.value, 160),
                                lab=label, src=", ".join(v.fact.sources[:4])
                                + (f" +{len(v.fact.sources) - 4} more" if len(v.fact.sources) > 4 else ""))))
            rows.append((Content("      "), markup("[dim]$d[/]", d=_cut(v.where or v.reason, 200))))
            note = PART_NOTE.get(part(v))
            if note:  # why check's ✗ and the headline's "lost" do not count it
                rows.append((Content("      "), markup("[$accent]$n[/]", n=note)))
    rows += _left_out(report)
    return HangingLines(rows)


def _left_out(report: SurvivalReport) -> list[Row]:
    """The facts the counts leave out, each with why, so "keeps 5 of 5" beside "◌ 6 pending
    records" in the header adds up: said after the range, or proposed by a tool or the model."""
    rows: list[Row] = []
    assert report.result is not None
    for title, facts, why in (
            ("after its range", report.result.after, "first said after what this generation covers: not judged"),
            ("untrusted, not counted", report.result.untrusted, "proposed by a tool or the model: not a fact "
             "a summary must keep"),
            ("filed in review, not counted", report.result.in_review, "a correction filed in review (it cites its "
             "ledger entry), after this summary was written: not judged against it"),
            ("without a source, not counted", report.result.unsourced, "cites no event, so when it was said is "
             "unknown: not judged"),
            ("stale proposals, not counted", report.result.stale, "proposed before its key's active version: the "
             "key is judged by that one; reject this proposal")):
        if not facts:
            continue
        rows += [(Content(), Content()), (Content(), markup("[b $text-muted]· $t ($n)[/]", t=title, n=str(len(facts))))]
        for f in facts:
            rows.append((markup("  [$text-muted]·[/] "), markup(
                "[b]$kind[/b] $val[dim]$st — $src[/]", kind=f.kind, val=_cut(f.value, 160), st=f" [{f.status}]",
                src=", ".join(f.sources[:4]) + (f" +{len(f.sources) - 4} more" if len(f.sources) > 4 else ""))))
            rows.append((Content("      "), markup("[dim]$d[/]", d=why)))
    return rows


class SurvivalView(Horizontal):
    DEFAULT_CSS = """
    /* one line each, cut with "…" (the detail beside it says the whole count): at 80 columns
       "1/5 kept, 2 lost, 1 not restated, 1 not judged" wrapped to the list's left edge */
    SurvivalView #survival-generations { width: 1fr; min-width: 24; border: none;
                                         text-wrap: nowrap; text-overflow: ellipsis; }
    SurvivalView #survival-detail { width: 3fr; border-left: solid $primary-darken-2; padding: 0 1; }
    """

    reports: var[list[SurvivalReport]] = var(list, always_update=True)
    chosen: var[int | None] = var(None)

    def compose(self) -> ComposeResult:
        yield OptionList(Option(markup(COMPUTING), disabled=True), id="survival-generations")
        with VerticalScroll(id="survival-detail"):
            yield Static("", id="survival-text")

    def computing(self) -> None:
        """While a session's survival is judged (seconds on a large log): said, not an empty tab."""
        options = self.query_one("#survival-generations", OptionList)
        options.clear_options()
        options.add_option(Option(markup(COMPUTING), disabled=True))
        self.query_one("#survival-text", Static).update("")

    def watch_reports(self, reports: list[SurvivalReport]) -> None:
        options = self.query_one("#survival-generations", OptionList)
        options.clear_options()
        for r in reports:
            t = r.result.tally() if r.result else None
            # red only for what check's ✗ counts; a "?" part (not restated, pending, not judged) is not green
            colour = "$error" if t and t.lost else "$accent" if t and t.kept < sum(t) else "$success"
            options.add_option(Option(markup(f"gen $g [dim]$k[/]\n  [{colour}]$h[/]", g=str(r.generation),
                                             k=r.kind or "", h=r.result.counts_brief() if r.result else "no summary"),
                                      id=str(r.generation)))
        if not reports:
            options.add_option(Option(markup(NO_GENERATION), disabled=True))
            self.query_one("#survival-text", Static).update("")
            return
        keep = next((i for i, r in enumerate(reports) if r.generation == self.chosen), 0)
        options.highlighted = keep
        self.chosen = reports[keep].generation
        self._show()

    def watch_chosen(self) -> None:
        self._show()

    def _show(self) -> None:
        report = next((r for r in self.reports if r.generation == self.chosen), None)
        if report is not None:
            self.query_one("#survival-text", Static).update(report_content(report))

    @on(OptionList.OptionHighlighted, "#survival-generations")
    def _pick(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self.chosen = int(event.option.id)
