"""The Candidates tab: every compression candidate with its status and verdict now."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets.option_list import Option

from inspector.domain.candidates import Validation
from inspector.services.lookup import FROM_SIF_ONLY
from inspector.ui.hanging import HangingLines
from inspector.ui.safe import markup
from inspector.ui.widgets.item_list import ItemList

STATUS_GLYPH = {"pending": "◷", "accepted": "●", "rejected": "○"}


class CandidatesList(ItemList):
    """Candidates, pending first. After a decision the cursor goes to ``cursor_after`` (the next
    pending candidate below the decided one), never to whatever row now has the old index."""

    class Chosen(ItemList.Chosen):
        """A candidate was chosen for review."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.status: dict[str, str] = {}
        self.cursor_after: str | None = None

    def next_pending_after(self, candidate: str) -> str | None:
        ids = list(self.status)
        later = ids[ids.index(candidate) + 1:] if candidate in ids else []
        return next((c for c in later if self.status[c] == "pending"), None)

    def load(self, found: list[tuple[dict[str, Any], Validation]]) -> None:
        keep = self.cursor_after or self.highlighted_id()
        self.cursor_after = None
        self.status = {c["id"]: c["status"] for c, _ in found}
        options: list[Option] = []
        for cand, v in found:
            glyph = STATUS_GLYPH.get(cand["status"], "?")
            if cand["status"] != "pending":
                verdict = markup("[dim]$s[/]", s=cand["status"])
            elif v.refusals:
                verdict = markup("[$error]✗ $c[/]", c=", ".join(r.code for r in v.refusals))
            else:
                verdict = markup("[$success]✓ structure verified[/]")
            warn = markup("  [$warning]! $w[/]", w=", ".join(w.code for w in v.warnings)) if v.warnings else Content("")
            # The codes continue under the candidate's text, not at column 1 (ui/hanging.py).
            options.append(Option(HangingLines([(
                markup("$g ", g=glyph),
                markup("[b]$id[/b]  base v$b · goal r$r  ", id=cand["id"], b=str(cand["base_version"]),
                       r=str(cand["goal_revision"])) + verdict + warn)]), id=cand["id"]))
        # said as the CLI says it (`candidates`): the tab alone left a reviewer of a transcript asking how to get one
        self.set_items(options, markup("[dim]no compression candidates in this session: $o; a transcript's own "
                                       "compactions are summary generations (Drift, Survival)[/]",
                                       o=FROM_SIF_ONLY["candidate"]), keep)
