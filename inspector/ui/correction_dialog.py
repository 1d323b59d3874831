"""Filing a correction: a protected record's new value, or a corrected summary generation.

| key | action |
|---|---|
| ctrl+s | file the correction (a summary is checked for drift first) |
| ctrl+y | save anyway, when the check found drift or a sentence it could not judge (recorded in the ledger) |
| escape | cancel |
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Footer, Input, Static, TextArea

from inspector.domain.drift import Finding, GenerationText, StateFact
from inspector.domain.plurals import counted
from inspector.domain.prefill_marks import marks_left, stand_ins
from inspector.domain.summary_fix import Fixed, fix_summary
from inspector.services import corrections
from inspector.services.channels import StateRecord
from inspector.store.connection import Store
from inspector.ui.modal import InspectorModal
from inspector.ui.safe import markup, safe


def corrected_text(gen: GenerationText, findings: list[Finding], records: list[StateRecord]) -> Fixed:
    """A starting point for the reviewer with every finding fixed that text can fix
    (the reviewer edits it before filing; it is checked again on save)."""
    state = [StateFact(r.key, r.kind, r.value, r.status, tuple(r.sources), r.writer, r.rationale,
                       tuple(r.alternatives)) for r in records if r.status != "superseded"]
    return fix_summary(gen, findings, state)


class CorrectionDialog(InspectorModal[bool]):
    """Correct a state record (``record``) or a summary generation (``generation``)."""

    BINDINGS = [Binding("ctrl+s", "submit", "File correction", id="correct.submit"),
                Binding("ctrl+y", "save_anyway", "Save anyway", id="correct.save_anyway", priority=True),
                Binding("escape", "close", "Cancel", id="dialog.close")]
    STATUS_ID = "correct-result"

    def __init__(self, store: Store, session: str, reviewer: str, *, record: StateRecord | None = None,
                 generation: int | None = None, prefill: str = "", unresolved: list[str] | None = None) -> None:
        super().__init__(store, session, reviewer)
        self.record, self.generation, self.prefill = record, generation, prefill
        self.unresolved = unresolved
        self.has_findings = False  # the last check of the text found drift: ctrl+y may save anyway
        self.new_row: str | None = None  # the version a record correction filed ("key@version"), once filed

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save_anyway":
            if self.record is not None:
                return False  # a record's correction is never checked for drift: the key would never do anything
            return True if self.has_findings else None  # shown greyed until a check found drift
        return True

    def compose(self) -> ComposeResult:
        with Vertical(id="correct"):
            if self.record is not None:
                r = self.record
                yield Static(markup("[b]Correct $k[/b] ($kind, now v$v: “$val”) as $who",
                                    k=r.key, kind=r.kind, v=str(r.version), val=r.value, who=self.reviewer))
                # the cursor after the value, nothing selected: a correction is mostly an edit, and with
                # the text selected the first key typed (or typed after shift+tab back) erased the value
                yield Input(safe(self.stored()), id="correct-value", select_on_focus=False)
            else:
                yield Static(markup("[b]Correct summary generation $g[/b] → a new generation of kind "
                                    "corrected, as $who", g=str(self.generation), who=self.reviewer))
                yield TextArea(safe(self.stored()), id="correct-text")
            hidden = sum(stand_ins(self.stored()).values())
            if hidden:  # said before any edit: the field holds marks, not the characters they stand for
                yield Static(markup("[$warning]$n shown as visible marks (⟨U+…⟩, ␛, ␇ …): the field holds the "
                                    "marks as text, not the characters. Remove each mark: a text still holding one "
                                    "is not saved.[/]",
                                    n=counted(hidden, "hidden or control character")), id="correct-marks")
            # nor here: back in a reason typed before (shift+tab, tab), the first key replaced it (newuser-18)
            yield Input(placeholder="reason (recorded in the ledger)", id="correct-reason", select_on_focus=False)
            yield Static("", id="correct-result")
            yield Button("File correction (ctrl+s)", id="correct-go", variant="primary")
        yield Footer()

    def stored(self) -> str:
        """The text the field is pre-filled from, before it is made visible."""
        if self.record is not None:
            return self.prefill or self.record.value
        return self.prefill

    def marks_refused(self, to_save: str, field: str) -> bool:
        """Refuse (said in the dialog) a text still holding a mark the pre-fill showed for a hidden
        character: saved, the mark would become the value's text and the record change unseen."""
        left = marks_left(self.stored(), to_save)
        if not left:
            return False
        self.status(markup("[$error]Nothing was saved: the text still holds $marks, the visible mark$s shown in "
                           "place of hidden or control characters. Saving would write them as text in "
                           "places you did not edit. Remove them.[/]", marks=", ".join(left), s="s" if len(left) > 1 else ""))
        self.query_one(field).focus()
        return True

    @on(Button.Pressed, "#correct-go")
    @on(Input.Submitted)
    def submit_from_widget(self, event: Button.Pressed | Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_save_anyway(self) -> None:
        if self.has_findings:
            self.action_submit(save_anyway=True)

    @work(group="correct", exclusive=True, exit_on_error=False)
    async def action_submit(self, save_anyway: bool = False) -> None:
        # the fields in the order they stand: an emptied value with no reason said "needs a reason" and
        # sent the cursor below, so the value typed next landed in the reason box (newuser-19)
        value = self.query_one("#correct-value", Input).value if self.record is not None else ""
        if self.record is not None and not value.strip():
            self.status(markup("[$warning]A correction needs a value.[/]"))
            self.query_one("#correct-value", Input).focus()
            return
        reason = self.query_one("#correct-reason", Input).value.strip()
        if not reason:
            self.status(markup("[$warning]A correction needs a reason.[/]"))
            self.query_one("#correct-reason", Input).focus()
            return
        if self.record is not None:
            if self.marks_refused(value, "#correct-value"):
                return
            outcome = await corrections.correct(self.store, self.session, self.record.key, value, reason=reason,
                                                actor=self.reviewer)
        else:
            text = self.query_one("#correct-text", TextArea).text
            if self.marks_refused(text, "#correct-text"):
                return
            outcome = await corrections.correct_summary(self.store, self.session, self.generation or 0, text,
                                                        reason=reason, actor=self.reviewer,
                                                        unresolved=self.unresolved, save_anyway=save_anyway,
                                                        hold_doubts=True)
        doubts = "\n".join(f"? {w['code']} (not judged): {w['message']}" for w in outcome.warnings)
        if outcome.refusals and outcome.findings:
            self.has_findings = True
            self.refresh_bindings()
            lines = "\n".join(f"✗ {f['code']}: {f['message']}" for f in outcome.findings)
            self.status(markup("[$error]The new text still drifts; nothing was saved.[/]\n$l\n"
                                 "Edit it and press ctrl+s again, or ctrl+y to save anyway "
                                 "(recorded in the ledger).", l=lines + ("\n" + doubts if doubts else "")))
            return
        if outcome.refusals and outcome.warnings:
            # Only sentences the rules could not judge: a doubt, held like a finding so the
            # reviewer reads it before it becomes the next generation's starting point.
            self.has_findings = True
            self.refresh_bindings()
            self.status(markup("[$warning]The rules could not judge part of the new text; nothing was saved yet.[/]"
                                 "\n$l\nA person must read it: edit and press ctrl+s again, or ctrl+y to save it "
                                 "as it is (recorded in the ledger).", l=doubts))
            return
        if outcome.refusals:
            self.status(markup("[$error]$m[/]", m=outcome.refusals[0].message))
            self.refuse(outcome.refusals[0], "Cannot file the correction")
            return
        if self.record is not None:
            self.new_row = f"{outcome.key}@{outcome.version}"
        if outcome.status == "pending":
            self.notify(safe(f"Proposed {outcome.key} v{outcome.version}: pending until the owner confirms it."), markup=False,
                        severity="warning", timeout=6)
        else:
            self.notify(f"Correction filed; context version is now {outcome.context_version}.")
        self.dismiss(True)

    def close_value(self) -> bool:
        return False
