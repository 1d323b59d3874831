"""The Candidates tab: every compression candidate with its status and verdict now."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.domain.candidates import Validation
from inspector.ui.safe import markup

STATUS_GLYPH = {"pending": "◷", "accepted": "●", "rejected": "○"}


class CandidatesList(OptionList):
    def load(self, found: list[tuple[dict[str, Any], Validation]]) -> None:
        self.clear_options()
        if not found:
            self.add_option(Option(markup("[dim]no compression candidates in this session[/]"),
                                   disabled=True))
            return
        for cand, v in found:
            glyph = STATUS_GLYPH.get(cand["status"], "?")
            if cand["status"] != "pending":
                verdict = markup("[dim]$s[/]", s=cand["status"])
            elif v.refusals:
                verdict = markup("[$error]✗ $c[/]", c=", ".join(r.code for r in v.refusals))
            else:
                verdict = markup("[$success]✓ structure verified[/]")
            warn = markup("  [$warning]! $w[/]", w=", ".join(w.code for w in v.warnings)) if v.warnings else Content("")
            self.add_option(Option(
                markup("$g [b]$id[/b]  base v$b · goal r$r  ", g=glyph, id=cand["id"],
                       b=str(cand["base_version"]), r=str(cand["goal_revision"])) + verdict + warn,
                id=cand["id"]))
        self.highlighted = 0
