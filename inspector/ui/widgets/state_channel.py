"""Protected state: typed records grouped by kind, every version, status by glyph and colour."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.services.channels import StateRecord
from inspector.ui.safe import markup, plain
from inspector.ui.widgets.channel import ChannelPane

GLYPH = {"active": ("●", "$success"), "pending": ("◌", "$warning"), "superseded": ("○", "$text-muted")}


def status_mark(status: str) -> Content:
    glyph, colour = GLYPH.get(status, ("?", "$accent"))
    return markup(f"[{colour}]$g[/]", g=glyph)


class StateChannel(ChannelPane):
    def __init__(self) -> None:
        super().__init__("Protected state", id="state")
        self.items: dict[str, StateRecord] = {}

    def load(self, records: list[StateRecord]) -> None:
        self.items = {f"{r.key}@{r.version}": r for r in records}
        options: list[Option] = []
        kind = None
        for r in records:
            if r.kind != kind:
                kind = r.kind
                options.append(Option(markup("[b $text-muted]$k[/]", k=kind.upper().replace("_", " ")),
                                      disabled=True))
            line = Content.assemble(
                status_mark(r.status), " ",
                markup("[dim]$v[/]" if r.status == "superseded" else "$v", v=r.value),
                markup("  [dim]v$n · $s[/]", n=str(r.version),
                       s=r.status if r.status != "active" else (r.writer or "")),
            )
            options.append(Option(line, id=f"{r.key}@{r.version}"))
        self.set_records(options, "no protected state recorded for this session")

    def selected(self) -> StateRecord | None:
        index = self.records.highlighted
        if index is None:
            return None
        option = self.records.get_option_at_index(index)
        return self.items.get(option.id or "")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is not self.records:
            return
        record = self.items.get(event.option.id or "")
        if record is None:
            return
        history = [r for r in self.items.values() if r.key == record.key]
        lines = [
            markup("[b]$key[/b]  $kind · v$v · ", key=record.key, kind=record.kind, v=str(record.version))
            + status_mark(record.status) + plain(f" {record.status}"),
            markup("value: [b]$v[/b]", v=record.value),
            markup("writer $w · $at · scope $s", w=record.writer or "unknown",
                   at=record.at or "time unknown", s=record.scope or "unknown"),
        ]
        if record.rationale:
            lines.append(markup("rationale: $r", r=record.rationale))
        if record.alternatives:
            lines.append(markup("alternatives: $a", a=" · ".join(record.alternatives)))
        if len(history) > 1:
            lines.append(markup("[dim]history ($n versions, h for details):[/]", n=str(len(history))))
            for h in sorted(history, key=lambda r: r.version):
                lines.append(Content("  ") + status_mark(h.status) + plain(f" v{h.version} {h.value}"))
        if not record.sources:
            lines.append(markup("[$warning]no sources cited[/]"))
        self.show_detail(Content("\n").join(lines), record.sources)
