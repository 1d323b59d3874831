"""Raw evidence: materials and the stubs that stand for them, plus search over the raw text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import line_safe
from inspector.services.channels import MaterialView, StubView
from inspector.ui.evidence_rows import RUN_PREFIX, PartsRun, arrange, human_size, options_for, run_option, shape
from inspector.ui.safe import markup, plain
from inspector.ui.widgets.channel import ChannelPane

THINKING_MARK = "∴"  # a hit in thinking text, marked as the timeline marks thinking

if TYPE_CHECKING:  # the search service loads with the first search, not with the first screen
    from inspector.services.search import Hit, SearchResult


class SearchBox(Input):
    """The search field. Its key line names the way out: while it has the focus, letters are
    text, so the screen's keys are gone from the line, and nothing said that ``escape`` leaves
    the box (and ``↓`` reaches the results)."""

    BINDINGS = [Binding("escape", "screen.clear_search", "Leave search", id="evidence.leave_search"),
                Binding("down", "leave_down", "Results", id="evidence.to_results")]

    def action_leave_down(self) -> None:
        channel = next((a for a in self.ancestors if isinstance(a, ChannelPane)), None)
        if channel is not None:
            channel.records.focus()


class EvidenceChannel(ChannelPane):
    DEFAULT_CSS = """
    EvidenceChannel .records.-rows { text-wrap: nowrap; text-overflow: ellipsis; }
    """
    BINDINGS = [Binding("right_square_bracket", "occurrence(1)", "Next match", id="evidence.next_match"),
                Binding("left_square_bracket", "occurrence(-1)", "Previous match", id="evidence.prev_match")]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``[`` / ``]`` only while search results are listed: with none they did nothing but
        still sat in the key line."""
        if action == "occurrence":
            return bool(self.found)
        return super().check_action(action, parameters)

    class SearchRequested(Message):
        def __init__(self, query: str) -> None:
            super().__init__()
            self.query = query

    def __init__(self) -> None:
        super().__init__("Raw evidence", id="evidence")
        self.materials: dict[str, MaterialView] = {}
        self.stubs: dict[str, tuple[StubView, MaterialView]] = {}
        self.rows: list[MaterialView | PartsRun] = []
        self.runs: dict[str, PartsRun] = {}  # option id -> a followed original's parts, folded in one row
        self.opened: set[str] = set()  # the originals whose parts are listed (enter on their row)
        self.listed: list[tuple[object, ...]] | None = None  # the rows' shape while materials are listed
        self.hits: dict[str, str] = {}
        self.found: dict[str, Hit] = {}  # hit option id -> the hit, with its occurrences
        self.occurrence = 0  # which occurrence of the highlighted hit the detail shows

    def compose_top(self) -> ComposeResult:
        yield SearchBox(placeholder="🔍 search events and materials", id="evidence-search")

    def load(self, materials: list[MaterialView], *, keep: bool = False) -> None:
        """List the materials with their stubs (a followed original's parts folded into one row:
        evidence_rows.py). ``keep``: the same session read again (a follow's poll) — the cursor
        stays on its row, and search results on screen stay until the search is cleared."""
        self.materials = {m.id: m for m in materials}
        self.stubs = {s.id: (s, m) for m in materials for s in m.stubs}
        self.rows = arrange(materials)
        self.runs = {f"{RUN_PREFIX}{r.original}": r for r in self.rows if isinstance(r, PartsRun)}
        if not keep:
            self.opened = set()
        elif self.hits or self.query_one(SearchBox).value:
            self.listed = None  # the results stay; the materials are listed afresh when the search is cleared
            return
        elif self.listed and self._grow(shape(self.rows, self.opened)):
            return
        self._list_rows(keep=keep)

    def _list_rows(self, *, keep: bool) -> None:
        self.hits, self.found = {}, {}
        self.records.set_class(True, "-rows")
        self.set_records(options_for(self.rows, self.opened), "no materials or stubs in this session", keep=keep)
        self.listed = shape(self.rows, self.opened) if self.rows else None
        self.refresh_bindings()

    def _grow(self, now: list[tuple[object, ...]]) -> bool:
        """The same rows, perhaps with more at the end: add those and redraw the folded runs' lines."""
        before = self.listed or []
        if now[:len(before)] != before:
            return False
        if len(now) > len(before):
            self.records.add_options(options_for(self.rows[len(before):], self.opened))
        for oid, run in self.runs.items():
            self.records.replace_option_prompt(oid, run_option(run, run.original in self.opened).prompt)
        self.listed = now
        return True

    def show_indexing(self, query: str, done: int, total: int) -> None:
        """A search waiting for events imported since the last one to be indexed says so."""
        self.listed = None
        self.hits, self.found = {}, {}
        self.records.set_class(False, "-rows")
        self.refresh_bindings()
        self.set_records([Option(markup("[$warning]indexing $n for search… · “$q” follows[/]",
                                        n=counted(max(total - done, 0), "event"), q=query), disabled=True)], "")

    def show_results(self, result: SearchResult) -> None:
        self.listed = None
        self.hits = {f"hit:{i}": h.ref for i, h in enumerate(result.hits)}
        self.found = {f"hit:{i}": h for i, h in enumerate(result.hits)}
        self.records.set_class(False, "-rows")  # a hit's text wraps: the match may be far into it
        method = {"fts": "trigram index", "grams": "short-query index"}.get(result.method, result.method)
        n, items = sum(h.occurrences for h in result.hits), len(result.hits)
        # "0 occurrences in 0 items for “x”" said nothing found the way no person says it
        head = (f"{n:,} occurrence{'s' if n != 1 else ''} in {result.counted('item')} for “{result.query}” · {method} "
                "· [ ] step through them"
                if items else f"No match for “{result.query}” in this session's events, tool calls' input, thinking and stored originals "
                f"· {method}")
        options = [Option(markup("[b]$h[/b]", h=head), disabled=True)]
        if result.note:
            options.append(Option(markup("[$warning]$n[/]", n=result.note), disabled=True))
        if not_searched := result.not_searched_sentence():  # "no match" must not read as "not in the session"
            options.append(Option(markup("[$warning]$n[/]", n=not_searched), disabled=True))
        for i, hit in enumerate(result.hits):
            # where it matched: the event's text, a tool call's input ("call input of Bash"), thinking (marked
            # ∴ as on the timeline: what the model thought, not what it said), a material's text
            where = f"{THINKING_MARK} {hit.matched}" if hit.matched == "thinking" else hit.matched
            options.append(Option(markup("[b]$ref[/b] [dim]$w · $n×[/]\n  $s", ref=hit.ref, w=where,
                                         n=str(hit.occurrences), s=line_safe(hit.snippet)),
                                  id=f"hit:{i}"))  # a line break in the text began a line at the list's edge
        self.set_records(options, "no hits")
        self.refresh_bindings()

    def _show_hit(self, oid: str) -> None:
        hit = self.found[oid]
        lines = [markup("[b]$r[/b] · $n — enter opens it", r=hit.ref,
                        n=f"{hit.occurrences:,} occurrence{'s' if hit.occurrences != 1 else ''}")]
        if hit.offsets:
            k = self.occurrence
            # the keys as values: a bare "[" in a template opens a tag and the line showed "[/]"
            # the offset is in the text the hit matched: the event's, its call input, the material's
            lines.append(markup("match $k of $n at character $o of the $w   [dim]$nx next · $pv previous[/]",
                                k=str(k + 1), n=f"{hit.occurrences:,}", o=f"{hit.offsets[k]:,}", w=hit.matched,
                                nx="]", pv="["))
            if hit.occurrences > len(hit.offsets):
                lines.append(markup("[dim]offsets listed for the first $m[/]", m=str(len(hit.offsets))))
        lines.append(plain(line_safe(hit.snippet_for(self.occurrence))))  # a line break shows as ␊
        self.show_detail(Content("\n").join(lines), [hit.ref])

    def action_occurrence(self, step: int) -> None:
        """] / [: the next or previous match — within the highlighted item, then on to the next item."""
        index = self.records.highlighted
        oid = self.records.get_option_at_index(index).id if index is not None else None
        if oid not in self.found:
            return
        hit = self.found[oid or ""]
        target = self.occurrence + step
        if 0 <= target < len(hit.offsets):
            self.occurrence = target
            self._show_hit(oid or "")
            return
        ids = list(self.found)
        at = ids.index(oid or "") + (1 if step > 0 else -1)
        if not 0 <= at < len(ids):
            self.notify("No more matches that way.", severity="information", timeout=2)
            return
        self.select_option(ids[at])
        self.occurrence = 0 if step > 0 else max(0, len(self.found[ids[at]].offsets) - 1)
        self._show_hit(ids[at])

    def select_option(self, option_id: str) -> None:
        for i in range(self.records.option_count):
            if self.records.get_option_at_index(i).id == option_id:
                with self.records.prevent(OptionList.OptionHighlighted):
                    self.records.highlighted = i
                return

    def selected_stub(self) -> StubView | None:
        index = self.records.highlighted
        if index is None:
            return None
        oid = self.records.get_option_at_index(index).id or ""
        if oid.startswith("mat:") and oid[4:] in self.materials:  # `e` on a material: its one stub, if one
            stubs = self.materials[oid[4:]].stubs  # (a new reviewer's `e` there only said "select a stub")
            return stubs[0] if len(stubs) == 1 else None
        return self.stubs[oid[5:]][0] if oid.startswith("stub:") else None

    def selected_target(self) -> str | None:
        """What a deletion request for the highlighted row targets: a material (a stub's material),
        or a search hit's event or material; None for a folded run of parts or nothing."""
        index = self.records.highlighted
        if index is None:
            return None
        oid = self.records.get_option_at_index(index).id or ""
        if oid in self.hits:
            return self.hits[oid]
        if oid.startswith("mat:") and oid[4:] in self.materials and not self.materials[oid[4:]].deleted \
                and self.materials[oid[4:]].size >= 0:
            return oid[4:]
        if oid.startswith("stub:") and oid[5:] in self.stubs:
            return self.stubs[oid[5:]][0].material
        return None

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
        if event.option_list is self.records and event.option.id in self.runs:
            event.stop()
            self.opened ^= {self.runs[event.option.id].original}  # enter lists the parts, again folds them
            self._list_rows(keep=True)
            return
        super().on_option_list_option_selected(event)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is not self.records:
            return
        oid = event.option.id or ""
        if oid in self.hits:
            self.occurrence = 0
            self._show_hit(oid)
        elif oid in self.runs:
            self._show_run(self.runs[oid])
        elif oid.startswith("mat:"):
            self._show_material(self.materials[oid[4:]])
        elif oid.startswith("stub:"):
            self._show_stub(*self.stubs[oid[5:]])

    def _show_run(self, run: PartsRun) -> None:
        self.show_detail(Content("\n").join([
            markup("[b]$n parts of $o[/b]", n=f"{len(run.parts):,}", o=run.original),
            markup("appended to the kept original while the session was followed, one per look: bytes $a–$b "
                   "($size); laid end to end after it they are the file byte for byte (inspector export)",
                   a=f"{run.start:,}", b=f"{run.end:,}", size=human_size(run.size)),
            markup("[dim]enter lists them (each with its hash and byte range); again folds them[/]")]), [])

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
            # Plain text: a "[" in a markup template opens a tag and swallowed the $variables (issue 15, 2).
            lines.append(Content(f"read_slice [{s.read_slice[0]:,}, {s.read_slice[1]:,}) · "
                                 f"{s.read_slice[1] - s.read_slice[0]:,} bytes"))
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
