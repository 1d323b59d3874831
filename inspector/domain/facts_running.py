"""Fact extraction over a log that only grows: a followed session, read as it is appended to.

``facts.extract`` reads a whole session; a live follow appends a few events per look, and
re-reading 100,000 events to propose the facts of five (1.6–3.6 s a look) made a follow
tick cost the session's size. ``RunningExtraction`` is fed the appended events only and
keeps what the rules carry from one event to the next:

* goals and decisions — whether a goal was seen, the options the assistant listed last and not
  yet answered, and what it said recently (a pick of options, a pasted-back line: facts_goals);
* constraints, references — each event on its own;
* artifacts — every edit call's paths, with the calls whose own result failed, applied when
  the records are made (a result can fail a call made long before);
* failures — the tool calls by id, and the failures no later success has resolved yet, by
  what a success must share to resolve them (``failures.find_failures``);
* todos — each item's trail of states (its kind is the last one's);
* published effects — each result with its own call (facts_published).

Each category's proposals are merged into records as they come (``facts.Merged``), so a
look merges what it appended rather than every repeat of a reference in the session; the
artifacts, failures and todos are merged again when a new event changed an earlier one.
``facts()`` then gives exactly what ``facts.extract`` of every event fed so far gives
(tests/test_facts_running.py checks it on the real transcripts cut into pieces). The one
thing it cannot carry is a tool call whose id an earlier call or result already used: the
whole-log rule pairs every result with the *last* call of its id, so such a call may
change an earlier failure. ``feed`` then raises ``NeedsWhole`` and the caller reads the
whole log again (``RunningExtraction.of``), as it does when events come out of order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from inspector.domain import (
    facts_goals,
    facts_pasted,
    facts_permissions,
    facts_published,
    facts_system,
    facts_text,
    facts_tools,
    facts_user_stated,
)
from inspector.domain.facts import Merged, ProposedFact, assemble_merged
from inspector.domain.facts_text import Proposal
from inspector.domain.facts_window import windowed
from inspector.domain.failures import (
    SHELL_TOOLS,
    FailedResult,
    covering,
    failed,
    find_failures,
    found_nothing,
    signature,
)
from inspector.domain.logevents import LogEvent
from inspector.domain.run_scope import Scope


class NeedsWhole(Exception):
    """The appended events cannot be read on their own: extract from the whole log again."""


class RunningExtraction:
    """``facts.extract`` of every event fed so far, fed in appended stretches."""

    def __init__(self) -> None:
        self.last_seq = 0  # the highest seq fed; the next stretch must start after it
        self._at: dict[int, str | None] = {}  # the time of each event a proposal cites
        self._goals = facts_goals.GoalReading()
        self._artifacts: list[tuple[str | None, Proposal]] = []  # (the edit call's id, its proposal)
        self._failed_calls: set[str] = set()  # call ids whose result is an error (artifacts.py's rule)
        self._calls: dict[str, LogEvent] = {}  # tool calls by id
        self._result_calls: set[str] = set()  # call ids some result named
        self._failures: list[FailedResult] = []
        self._unresolved: dict[str, list[int]] = {}  # what a success must share -> failures it would resolve
        self._scopes: dict[str, Scope | None] = {}  # what each shell command ran (run_scope), read once
        self._resolved = False  # whether the stretch being fed resolved an earlier failure
        self._todos: dict[str, list[tuple[int, str]]] = {}
        # Each category's proposals merged into records as they come (``facts._merge``'s rule),
        # so a look merges what it appended, not the session's 10,000 repeats of a reference;
        # the artifacts, failures and todos are merged again when an earlier one changed.
        self._merged = {name: Merged() for name in ("constraint", "permission", "decision", "artifact", "failure", "todo",
                                                    "reference", "published", "pasted")}
        self._published: list[Proposal] = []  # the stretch's published effects (facts_published)
        self._published_all: list[Proposal] = []  # every one kept so far: an amend may withdraw one of them
        self._seen_user = False  # past the system prompt: its rules are read before the first user message

    @classmethod
    def of(cls, events: Iterable[LogEvent]) -> RunningExtraction:
        running = cls()
        running.feed(events)
        return running

    def feed(self, events: Iterable[LogEvent]) -> None:
        """Read the events appended after the last ones fed (in any order among themselves).
        Raises ``NeedsWhole`` — leaving this object unusable — when they cannot be read so."""
        ordered = sorted(windowed(events), key=lambda e: e.seq)  # a huge event: its head and tail (facts_window)
        if not ordered:
            return
        if ordered[0].seq <= self.last_seq:
            raise NeedsWhole(f"evt:{ordered[0].seq} is not after evt:{self.last_seq}")
        self.last_seq = ordered[-1].seq
        at = self._at
        for e in ordered:
            at[e.seq] = e.at
        decisions = facts_goals.read_replies(ordered, self._goals)
        merged = self._merged
        # The system prompt's rules (facts_system) come before the first user message, so before
        # every rule the user typed, as in ``facts.extract``.
        system, self._seen_user = facts_system.system_constraints(ordered, self._seen_user)
        merged["constraint"].add([*system, *facts_text.constraints(ordered, self._goals.own, self._goals.before)], at)
        merged["permission"].add(facts_permissions.permissions(ordered, self._goals.own, self._goals.before), at)
        merged["decision"].add(facts_user_stated.with_picks(decisions, ordered, self._goals.own), at)
        artifacts, failures = len(self._artifacts), len(self._failures)
        edited = {call_id for call_id, _ in self._artifacts}
        failed_before, self._resolved = set(self._failed_calls), False
        for e in ordered:
            if e.kind == "tool_call":
                self._call(e)
            elif e.kind == "tool_result":
                self._result(e)
        if (self._failed_calls - failed_before) & edited:  # an earlier edit's own result failed
            merged["artifact"] = Merged().add(self._kept_artifacts(self._artifacts), at)
        else:
            merged["artifact"].add(self._kept_artifacts(self._artifacts[artifacts:]), at)
        if self._resolved:  # a success resolved an earlier failure: its record's detail changed
            merged["failure"] = Merged().add(map(facts_tools.failure_proposal, self._failures), at)
        else:
            merged["failure"].add(map(facts_tools.failure_proposal, self._failures[failures:]), at)
        if any(e.kind == "tool_call" for e in ordered):
            before = {text: len(trail) for text, trail in self._todos.items()}
            facts_tools.todo_states(ordered, self._todos)
            if before != {text: len(trail) for text, trail in self._todos.items()}:
                merged["todo"] = Merged().add(facts_tools.todo_proposals(self._todos), at)
        merged["reference"].add(facts_text.references(ordered, self._goals.own), at)
        merged["pasted"].add(facts_pasted.pasted_failures(ordered), at)  # last, as in ``facts.extract``
        if facts_published.amends(self._published):  # an amend withdraws an earlier stretch's commit too
            self._published_all = facts_published.without_amended(self._published_all + self._published)
            merged["published"] = Merged().add(self._published_all, at)
        else:
            self._published_all += self._published
            merged["published"].add(self._published, at)
        self._published = []

    def _call(self, e: LogEvent) -> None:
        if e.call_id:
            if e.call_id in self._calls or e.call_id in self._result_calls:
                raise NeedsWhole(f"the tool call id {e.call_id!r} of evt:{e.seq} was used before")
            self._calls[e.call_id] = e
        # Unfiltered here: whether the call's own result failed is applied in ``facts``.
        self._artifacts += [(e.call_id, p) for p in facts_tools.artifacts([e])]

    def _result(self, e: LogEvent) -> None:
        """``find_failures``'s reading of one result (it follows every result fed before)."""
        call = None
        if e.call_id:
            self._result_calls.add(e.call_id)
            call = self._calls.get(e.call_id)
            if e.is_error:
                self._failed_calls.add(e.call_id)
        self._published += facts_published.of_result(call, e) if e.call_id else []
        sig = signature(call, e)
        tool = ((call.tool if call else None) or e.tool or "").casefold()
        is_failed = failed(e, call) and not found_nothing(tool, e.text)
        same = sig if tool in SHELL_TOOLS or not tool else f"tool:{tool}"
        if not is_failed:
            # The first later success sharing ``same``, or a run covering it (run_scope), resolves
            # every failure still open for it.
            keys = [same] + [k for k in self._unresolved if k != same and covering(k, same, self._scopes)] \
                if same else []
            for key in keys:
                for i in self._unresolved.pop(key, []):
                    self._failures[i] = replace(self._failures[i], resolved_by=e.seq)
                    self._resolved = True
            return
        pair = [call, e] if call is not None else [e]
        self._failures += find_failures(pair)  # this one failure, resolved by nothing yet
        if same:
            self._unresolved.setdefault(same, []).append(len(self._failures) - 1)

    def _kept_artifacts(self, artifacts: list[tuple[str | None, Proposal]]) -> list[Proposal]:
        return [p for call_id, p in artifacts if not (call_id and call_id in self._failed_calls)]

    def facts(self) -> list[ProposedFact]:
        """What ``facts.extract`` of every event fed so far gives (new objects each time)."""
        return assemble_merged(list(self._goals.proposals), self._merged.values(), self._at)
