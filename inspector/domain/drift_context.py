"""What drift needs from the raw log besides the protected state and the summary text.

Kept apart from the rules so services build it from the store (failures, actions with
their outcomes, rule-like sentences from untrusted output, the session's event numbers
and ids) without importing any rule, and rules read it without knowing the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.failures import FailedResult
from inspector.domain.result_in_part import LongResult
from inspector.domain.said_output_numbers import ToolRun
from inspector.domain.textnorm import norm


@dataclass(frozen=True, slots=True)
class ActionFact:
    id: str
    intent: str | None
    status: str
    tool: str | None = None


@dataclass(frozen=True, slots=True)
class DriftContext:
    """What drift needs from the raw log besides the protected state."""

    failures: tuple[FailedResult, ...] = ()
    actions: tuple[ActionFact, ...] = ()
    untrusted_rules: tuple[tuple[int, str], ...] = ()  # (seq, rule-like sentence from tool/model text)
    max_seq: int | None = None
    event_seqs: frozenset[int] | None = None
    # Events that record a compaction itself (boundary marker, the summary's own line): a
    # generation citing them cites its origin, not a fact outside its range.
    carriers: frozenset[str] = frozenset()
    # The ids of the session's materials, stubs and actions (None: not known, not judged).
    known_refs: frozenset[str] | None = None
    # Event texts by seq (None: not known). A fact is established at the first of its
    # sources whose text carries its value ("P95 仍待测" cited from evt:11 and evt:12 is
    # only said at evt:12), else at its first source.
    event_texts: dict[int, str] | None = None
    # The session's whole evidence, lower-cased (events, tool inputs, stored originals; not
    # the compaction carriers), and whether the log is whole (begins where the conversation
    # began, nothing deleted; None: cannot tell). None: not read, identifiers not judged.
    evidence: str | None = None
    evidence_whole: bool | None = None
    evidence_gap: str = ""  # why it is not whole ("the log continues an earlier conversation")
    # (seq, characters) of the user's messages every rule read only in part (domain/unreadable.py IN_PART)
    said_in_part: tuple[tuple[int, int], ...] = ()
    # The tool results every rule read only in part (domain/result_in_part.py RESULT_IN_PART)
    results_in_part: tuple[LongResult, ...] = ()
    # The seqs of every tool result, in order: whether the last one in a range is a failure
    # (a goal called done over a failing run, ``said_goal_done.goal_done_over_failure``).
    result_seqs: tuple[int, ...] = ()
    # Every tool result with its command and output (said_output_numbers: a number a summary
    # repeats from an output, compared with the output).
    tool_runs: tuple[ToolRun, ...] = ()
    # The user's messages (seq, text): a user who says "I merged it" shows the merge a summary
    # claims (said_completion).
    user_said: tuple[tuple[int, str], ...] = ()
    _established: dict[Any, int | None] = field(default_factory=dict, compare=False,
                                                                        hash=False, repr=False)

    def established(self, value: str, sources: tuple[str, ...], first: int | None) -> int | None:
        if self.event_texts is None or first is None:
            return first
        key = (value, sources)
        if key not in self._established:
            v = norm(value)
            seqs = sorted(int(x[4:]) for x in sources if x.startswith("evt:") and x[4:].isdigit())
            self._established[key] = next((n for n in seqs if v and v in norm(self.event_texts.get(n, ""))), first)
        return self._established[key]
