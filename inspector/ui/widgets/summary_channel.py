"""Task summary: generations latest first, text with its unresolved markers highlighted."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.services.channels import Generation
from inspector.ui.dialogs import MessageDialog
from inspector.ui.safe import markup, safe
from inspector.ui.widgets.channel import ChannelPane

DETAIL_CHARS = 2000  # longer texts are cut here, said so, and open whole with enter
PREVIEW_CHARS = 70  # a generation's line in the list: its start, "…" when there is more


def highlight_unresolved(text: str, markers: list[str]) -> Content:
    """The text with every verbatim occurrence of an unresolved marker shown as ⟨marker⟩."""
    text = safe(text)
    content = Content(text)
    for marker in (safe(m) for m in markers):
        start = text.find(marker)
        while marker and start != -1:
            content = content.stylize("bold $warning", start, start + len(marker))
            start = text.find(marker, start + len(marker))
    return content


class SummaryChannel(ChannelPane):
    def __init__(self) -> None:
        super().__init__("Task summary", id="summary")
        self.items: dict[str, Generation] = {}

    def load(self, gens: list[Generation], *, keep: bool = False) -> None:
        self.items = {f"gen-{g.generation}": g for g in gens}
        options = []
        for g in gens:
            parent = f" ← {g.parent}" if g.parent is not None else ""
            head = markup("[b]gen $n[/b] · $kind$parent", n=str(g.generation), kind=g.kind, parent=parent)
            if g.unresolved:
                head += markup("  [$warning]⟨$u open⟩[/]", u=str(len(g.unresolved)))
            preview = " ".join(g.text.split())
            if len(preview) > PREVIEW_CHARS:  # cut, and says so ("…that ran " read as the whole text)
                preview = preview[:PREVIEW_CHARS - 1].rstrip() + "…"
            options.append(Option(head + Content("\n  ") + markup("[dim]$p[/]", p=preview),
                                  id=f"gen-{g.generation}"))
        self.set_records(options, "no summary generations for this session", keep=keep)

    def selected(self) -> Generation | None:
        index = self.records.highlighted
        if index is None:
            return None
        return self.items.get(self.records.get_option_at_index(index).id or "")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        g = self.items.get(event.option.id or "") if event.option_list is self.records else None
        if g is None:
            super().on_option_list_option_selected(event)
            return
        event.stop()
        self.app.push_screen(MessageDialog(f"Generation {g.generation} · {g.kind}",
                                           highlight_unresolved(g.text, g.unresolved)))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is not self.records:
            return
        g = self.items.get(event.option.id or "")
        if g is None:
            return
        lines = [
            markup("[b]generation $n[/b] · $kind · parent $p · base $b · covers $c",
                                n=str(g.generation), kind=g.kind, p=str(g.parent) if g.parent is not None else "none",
                                b=f"v{g.base_version}" if g.base_version is not None else "not recorded",
                                c=f"evt:{g.covers[0]}–{g.covers[1]}" if g.covers else "unknown"),
            highlight_unresolved(g.text[:DETAIL_CHARS], g.unresolved),
        ]
        if len(g.text) > DETAIL_CHARS:
            lines.append(markup("[$warning]… $n more characters: enter opens the whole generation[/]",
                                n=f"{len(g.text) - DETAIL_CHARS:,}"))
        if g.unresolved:
            lines.append(Content("unresolved: ") + Content(" ").join(
                markup("[bold $warning]⟨$u⟩[/]", u=u) for u in g.unresolved))
        else:
            lines.append(markup("[dim]no unresolved markers[/]"))
        for claim in g.claims:
            lines.append(markup("claim [b]$k[/b]: $t", k=claim.get("key", "?"), t=claim.get("text", "")))
        if not g.sources:
            lines.append(markup("[$warning]no sources cited[/]"))
        self.show_detail(Content("\n").join(lines), g.sources)
