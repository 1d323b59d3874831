"""Reviewing one compression candidate: the current context beside the candidate.

| key | action |
|---|---|
| a | accept (only when no check refuses it) |
| r | reject, with a reason |
| b | rebase a stale candidate onto the current base (a new candidate, validated afresh) |
| escape | close |
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Input, Static

from inspector.domain.errors import Refusal
from inspector.services import candidates, rebasing
from inspector.services.candidates import ReviewView
from inspector.services.rebasing import describe_changes
from inspector.store.connection import Store
from inspector.ui.byte_view import visible, word_diff
from inspector.ui.dialog_base import Dialog
from inspector.ui.modal import InspectorModal
from inspector.ui.safe import markup, plain, safe


def _mark(ok: bool) -> Content:
    return markup("[$success]✓[/]" if ok else "[b $error]✗[/]")


def review_content(view: ReviewView) -> Content:
    v, c = view.validation, view.candidate
    decided = v.status != "pending"
    # A decided candidate has no verdict to give: "(accepted) · refused" misled (issue 15, 9).
    verdict = ("decided; the checks below compare it with the context as it is now" if decided
               else "structure verified" if v.structure_verified else "refused")
    lines: list[Content] = [markup(
        "[b]$id[/b] ($st) · $verdict · semantic_lossless: unknown", id=v.candidate, st=v.status, verdict=verdict)]
    lines.append(markup("\n[b]VERSIONS[/b]  current │ candidate"))
    lines.append(_mark(c["base_version"] == view.context_version) + plain(
        f" context v{view.context_version} │ base v{c['base_version']}"))
    lines.append(_mark(c["goal_revision"] == view.goal_revision) + plain(
        f" goal r{view.goal_revision} │ r{c['goal_revision']}"))
    lines.append(markup("\n[b]EXACT FIELDS[/b]  current │ candidate (byte for byte)"))
    diffs = {d.key: d for d in v.field_diffs}
    theirs = c.get("exact_fields") or {}
    for key in sorted(view.required_exact.keys() | theirs.keys()):
        d = diffs.get(key)
        mine, other = view.required_exact.get(key), theirs.get(key)
        row = _mark(d is None) + plain(f" {key}: {visible(mine) if mine is not None else '—'} │ "
                                         f"{visible(str(other)) if other is not None else '—'}")
        if d is not None:
            row += markup("\n    [$error]$e[/]", e=d.explanation)
        lines.append(row)
    lines.append(markup("\n[b]ACTIONS[/b]  action ledger │ candidate"))
    for label, ours, cand in (("open", view.open_actions, c.get("open_actions") or []),
                              ("unknown", view.unknowns, c.get("unknowns") or [])):
        lines.append(_mark(sorted(cand) == ours) + plain(f" {label}: [{', '.join(ours)}] │ [{', '.join(cand)}]"))
    lines.append(markup("\n[b]SUMMARY[/b]  latest generation $g → candidate",
                        g=str(view.latest_generation) if view.latest_generation is not None else "(none)"))
    summary = c.get("summary")
    if isinstance(summary, str):
        lines.append(word_diff(view.latest_summary or "", summary))
    else:
        lines.append(markup("[$error]not text: $s[/]", s=repr(summary)[:200]))
    if v.refusals and decided:
        lines.append(markup("\n[b]WOULD NOT PASS NOW[/b] [dim](already $s; nothing to decide)[/]", s=v.status))
        lines += [markup("[dim]$c[/] $m", c=r.code, m=r.message) for r in v.refusals]
    elif v.refusals:
        lines.append(markup("\n[b $error]REFUSED[/b $error]"))
        lines += [markup("[b $error]$c[/] $m", c=r.code, m=r.message) for r in v.refusals]
    if v.warnings:
        lines.append(markup("\n[b $warning]WARNINGS[/b $warning] (do not block)"))
        lines += [markup("[b $warning]$c[/] $m", c=w.code, m=w.message) for w in v.warnings]
    return Content("\n").join(lines)


def rebase_content(rebased_into: str | None, changes: dict[str, Any] | None, origin: Any) -> Content:
    """Where a stale candidate went, or what changed under a rebased one."""
    lines: list[Content] = []
    if isinstance(origin, dict) and changes is not None:
        lines.append(markup("\n[b]REBASED[/b] from $c (context v$v, goal r$g) — changed in between:",
                                         c=str(origin.get("candidate")), v=str(origin.get("base_version")),
                                         g=str(origin.get("goal_revision"))))
        lines += [plain(line) for line in describe_changes(changes)]  # state keys: content
    if rebased_into is not None:
        lines.append(markup("\n[$accent]rebased as $n[/] (this one stays as it was)", n=rebased_into))
    return Content("\n").join(lines) if lines else Content("")


class ReasonDialog(Dialog[str | None]):
    """Asks why; returns the reason, or None when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="reason.cancel")]

    def __init__(self, prompt: str) -> None:
        super().__init__()
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(id="reason"):
            # "enter" said above the field: in a 46-column field at 80×24 the placeholder that said
            # it was cut mid-sentence ("… recorded in the ledger (enter to").
            yield Static(plain(self.prompt) + markup(" [dim]· enter confirms[/]"))
            yield Input(placeholder="the reason (recorded in the ledger)", id="reason-input", select_on_focus=False)
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.dismiss(event.value.strip())
        else:
            self.notify("A rejection needs a reason.", severity="warning")

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReviewDialog(InspectorModal[bool]):
    """Returns True when the candidate was decided (so the screen behind refreshes)."""

    BINDINGS = [
        Binding("a", "accept", "Accept", id="review.accept"),
        Binding("r", "reject", "Reject", id="review.reject"),
        Binding("b", "rebase", "Rebase", id="review.rebase"),
    ]
    STATUS_ID = "review-status"
    BODY_ID = "review-text"

    def __init__(self, store: Store, session: str, candidate: str, reviewer: str,
                 on_decided: Callable[[], Awaitable[None]] | None = None) -> None:
        super().__init__(store, session, reviewer)
        self.candidate = candidate
        # the screen behind re-reads its counts at once, not when this closes; awaited in this dialog's own
        # worker, after its write, so the two never use the store's connection at the same time
        self.on_decided = on_decided
        self.view: ReviewView | None = None
        self.decided = False
        self.rebased_into: str | None = None
        # `a` / `r` typed while the candidate is still being read ("loading…"): done once it is read,
        # so k enter a typed at once accepts instead of losing the a (fresh-eyes review)
        self.typed_ahead: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="review"):
            with VerticalScroll(id="review-body"):
                yield Static(markup("[dim]loading…[/]"), id="review-text")
            yield Static("", id="review-status")
        yield Footer()

    async def read(self) -> None:
        await self._reload()

    async def _read(self) -> None:
        self.view = await candidates.review_view(self.store, self.candidate, self.session)
        self.rebased_into, changes = await rebasing.rebase_info(self.store, self.view.candidate)
        self.query_one("#review-text", Static).update(review_content(self.view) + rebase_content(
            self.rebased_into, changes, self.view.candidate.get("rebased_from")))
        self._status()
        self.refresh_bindings()
        typed, self.typed_ahead = self.typed_ahead, None
        if typed is not None and self.check_action(typed, ()):
            getattr(self, f"action_{typed}")()

    def _status(self) -> None:
        v = self.view.validation if self.view else None
        if v is None:
            return
        if v.status != "pending":
            self.status(markup("[b]already $s[/b]: nothing more to decide", s=v.status))
        elif self.store.read_only:
            self.status(markup("[b $warning]deciding is disabled:[/] the store is read-only ($m)",
                               m=self.store.read_only_reason))
        elif v.refusals and self._stale() and self.rebased_into is None:
            self.status(markup("[b $error]accept is disabled:[/] $m\n[$accent]b rebases it[/] onto "
                                              "context v$n as a new candidate, validated afresh",
                                              m=v.refusals[0].message, n=str(self.view.context_version)))
        elif v.refusals:
            self.status(markup("[b $error]accept is disabled:[/] $m", m=v.refusals[0].message))
        else:
            self.status(markup("[$success]a accepts[/] (context v$n → v$m) · r rejects · as $who",
                                 n=str(self.view.context_version), m=str(self.view.context_version + 1),
                                 who=self.reviewer))

    def _stale(self) -> bool:
        v = self.view.validation if self.view else None
        return v is not None and any(r.code in ("stale_base", "stale_goal") for r in v.refusals)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hides both decisions once decided, rebase unless stale. A refused accept stays live so that
        pressing ``a`` says why (a greyed-out key that did nothing left the reviewer guessing: issue 15, 9)."""
        if action == "rebase":
            pending = self.view is not None and self.view.validation.status == "pending"
            if not (pending and self._stale() and self.rebased_into is None):
                return False  # nothing to rebase: no greyed "b Rebase" in the footer of a current candidate
            return None if self.store.read_only else True  # read-only: greyed, as accept and reject
        if action in ("accept", "reject"):
            if self.store.read_only:
                return None
            if self.view is None:
                return True  # still reading: the key is kept (action_accept / action_reject)
            v = self.view.validation
            if v.status != "pending":
                return False
        return True

    def why_greyed(self, action: str) -> tuple[str, Refusal] | None:
        """accept / reject / rebase pressed on a read-only store say so (they did nothing)."""
        if action in ("accept", "reject", "rebase") and self.store.read_only:
            return f"Cannot {action} {self.candidate}", Refusal(
                "read_only", f"the store is read-only ({self.store.read_only_reason}).")
        return None

    def action_accept(self) -> None:
        if self.view is None:
            self.typed_ahead = "accept"
            return
        v = self.view.validation
        if v is not None and v.refusals:
            self.refuse(v.refusals[0], f"Cannot accept {self.candidate}")
            return
        self.accept()

    @work(group="review-decide", exclusive=True, exit_on_error=False)
    async def accept(self) -> None:
        # Said at once: a store another program is writing makes the accept wait (up to the busy
        # timeout) with the dialog unchanged, which read as a frozen screen (store-fault-six).
        self.status(markup("[b $warning]accepting $c…[/] (waiting for the store if another program is writing it)",
                           c=self.candidate))
        try:
            decision = await candidates.accept(self.store, self.candidate, actor=self.reviewer,
                                               session=self.session)
        except BaseException:
            self._status()  # refused (store_busy, …): the dialog says what it said before
            raise
        if decision.validation.refusals:  # the session moved on while this screen was open
            self.refuse(decision.validation.refusals[0], f"Cannot accept {self.candidate}")
        else:
            self._decided()
            self.notify(safe(f"Accepted {self.candidate}: context version is now {decision.context_version}."), markup=False)
        await self._reload()

    @work(group="review-decide", exclusive=True, exit_on_error=False)
    async def action_rebase(self) -> None:
        result = await rebasing.rebase(self.store, self.candidate, actor=self.reviewer, session=self.session)
        if result.refusals or result.candidate is None:
            self.refuse(result.refusals[0], f"Cannot rebase {self.candidate}")
            return
        self._decided()  # the list behind gains a candidate
        self.notify(safe(f"Rebased {self.candidate} as {result.candidate} on context v{result.to_version[0]}; "
                         f"{self.candidate} stays as it was."), markup=False)
        self.candidate = result.candidate  # review the new one: a accepts it if nothing refuses
        await self._reload()

    def action_reject(self) -> None:
        if self.view is None:
            self.typed_ahead = "reject"
            return
        def done(reason: str | None) -> None:
            if reason:
                self.run_worker(self._reject(reason), group="review-decide", exclusive=True, exit_on_error=False)

        self.app.push_screen(ReasonDialog(f"Reject {self.candidate}: why?"), done)

    async def _reject(self, reason: str) -> None:
        await candidates.reject(self.store, self.candidate, actor=self.reviewer, reason=reason, session=self.session)
        self._decided()
        self.notify(safe(f"Rejected {self.candidate}."), markup=False)
        await self._reload()

    def _decided(self) -> None:
        self.decided = True

    async def _reload(self) -> None:
        await self._read()
        if self.decided and self.on_decided is not None:
            await self.on_decided()

    def close_value(self) -> bool:
        return self.decided
