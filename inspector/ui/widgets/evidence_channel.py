"""Raw evidence: materials and the stubs that stand for them, plus search over the raw text."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from inspector.services.channels import MaterialView, StubView
from inspector.services.search import SearchResult
from inspector.ui.safe import markup
from inspector.ui.widgets.channel import ChannelPane


def human_size(n: int) -> str:
    if n < 0:
        return "missing"
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)


class EvidenceChannel(ChannelPane):
    class SearchRequested(Message):
        def __init__(self, query: str) -> None:
            super().__init__()
            self.query = query

    def __init__(self) -> None:
        super().__init__("Raw evidence", id="evidence")
        self.materials: dict[str, MaterialView] = {}
        self.stubs: dict[str, tuple[StubView, MaterialView]] = {}
        self.hits: dict[str, str] = {}

    def compose_top(self) -> ComposeResult:
        yield Input(placeholder="🔍 search events and materials", id="evidence-search")

    def load(self, materials: list[MaterialView]) -> None:
        self.materials = {m.id: m for m in materials}
        self.stubs = {s.id: (s, m) for m in materials for s in m.stubs}
        self.hits = {}
        options: list[Option] = []
        for m in materials:
            state = "[$error]deleted[/]" if m.deleted else "[$accent]missing[/]" if m.size < 0 else "$size"
            options.append(Option(markup(
                f"[b]$id[/b]  {state}  [dim]$v · $scope · $h[/]", id=m.id, size=human_size(m.size),
                v=m.source_version or "no version", scope=m.disclosure_scope or "no scope",
                h=m.content_hash.removeprefix("sha256:")[:8] or "no hash"), id=f"mat:{m.id}"))
            for s in m.stubs:
                rng = f"[{s.read_slice[0]}, {s.read_slice[1]})" if s.read_slice else "[whole]"
                outline = s.outline or "no outline"
                options.append(Option(markup(
                    "  ↳ $id $rng $scope\n    [dim]「$outline」[/]", id=s.id, rng=rng,
                    scope=s.disclosure_scope or "", outline=outline[:60]), id=f"stub:{s.id}"))
        self.set_records(options, "no materials or stubs in this session")

    def show_results(self, result: SearchResult) -> None:
        self.hits = {f"hit:{i}": h.ref for i, h in enumerate(result.hits)}
        method = {"fts": "trigram index", "grams": "short-query index"}.get(result.method, result.method)
        head = f"{len(result.hits)}{'+' if result.more else ''} hit(s) for “{result.query}” · {method}"
        options = [Option(markup("[b]$h[/b]", h=head), disabled=True)]
        if result.note:
            options.append(Option(markup("[$warning]$n[/]", n=result.note), disabled=True))
        for i, hit in enumerate(result.hits):
            options.append(Option(markup("[b]$ref[/b] [dim]$w[/]\n  $s", ref=hit.ref, w=hit.where,
                                         s=hit.snippet), id=f"hit:{i}"))
        self.set_records(options, "no hits")

    def selected_stub(self) -> StubView | None:
        index = self.records.highlighted
        if index is None:
            return None
        oid = self.records.get_option_at_index(index).id or ""
        return self.stubs[oid[5:]][0] if oid.startswith("stub:") else None

    def select_material(self, material_id: str) -> bool:
        for index in range(self.records.option_count):
            if self.records.get_option_at_index(index).id == f"mat:{material_id}":
                self.records.highlighted = index
                return True
        return False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.SearchRequested(event.value))

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.SearchRequested(event.value))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list is self.records and event.option.id in self.hits:
            event.stop()
            self.post_message(self.SourceChosen(self.hits[event.option.id]))
            return
        super().on_option_list_option_selected(event)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is not self.records:
            return
        oid = event.option.id or ""
        if oid in self.hits:
            self.show_detail(markup("search hit in [b]$r[/b] — enter to open", r=self.hits[oid]),
                             [self.hits[oid]])
        elif oid.startswith("mat:"):
            self._show_material(self.materials[oid[4:]])
        elif oid.startswith("stub:"):
            self._show_stub(*self.stubs[oid[5:]])

    def _show_material(self, m: MaterialView) -> None:
        if m.size < 0:
            self.show_detail(markup(
                "[b]$id[/b]\n[$accent]missing: stubs point at it, but the store holds no such material[/]",
                id=m.id), [])
            return
        lines = [
            markup("[b]$id[/b]  $size ($n bytes) · $mt", id=m.id, size=human_size(m.size),
                   n=f"{m.size:,}", mt=m.media_type or "unknown type"),
            markup("version $v · scope $s · retrieved $r", v=m.source_version or "unknown",
                   s=m.disclosure_scope or "unknown", r=m.retrieved_at or "unknown"),
            markup("hash [dim]$h[/]", h=m.content_hash),
        ]
        if m.deleted:
            lines.append(markup("[$error]deleted: only its tombstone remains[/]"))
        if 0 < m.indexed_bytes < m.size:
            lines.append(markup("[$warning]search covers only the first $n bytes[/]",
                                n=f"{m.indexed_bytes:,}"))
        sources = [f"evt:{m.source_event}"] if m.source_event is not None else []
        self.show_detail(Content("\n").join(lines), sources)

    def _show_stub(self, s: StubView, m: MaterialView) -> None:
        lines = [markup("[b]$id[/b] → $mat", id=s.id, mat=s.material)]
        if s.read_slice:
            lines.append(markup("read_slice [$a, $b) · $n bytes", a=str(s.read_slice[0]),
                                             b=str(s.read_slice[1]), n=f"{s.read_slice[1] - s.read_slice[0]:,}"))
        lines.append(markup("version $v · scope $sc · retrieved $r", v=s.source_version or "unknown",
                            sc=s.disclosure_scope or "unknown", r=s.retrieved_at or "unknown"))
        if m.size >= 0 and s.source_version and m.source_version and s.source_version != m.source_version:
            lines.append(markup("[$error]version differs from the stored material ($mv)[/]",
                                mv=m.source_version))
        if m.size >= 0 and s.content_hash and s.content_hash != m.content_hash:
            lines.append(markup("[$error]hash differs from the stored material[/]"))
        if m.size < 0:
            lines.append(markup("[$accent]its material is missing from the store[/]"))
        lines.append(markup("outline: $o", o=s.outline or "none"))
        self.show_detail(Content("\n").join(lines), [s.material])
