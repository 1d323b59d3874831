"""What one generation's survival check found, and how its header line says it.

The verdicts themselves are made in survival.py; this is the result a reviewer reads: the
counts, the headline ("gen 1: 4 of 5 facts kept, 0 lost, 1 not judged · 1 after its range") and the facts left out
of the count, each with why, so no fact is silently uncounted.

"lost" here is check's ✗ (services/survival_verdict.py reads :func:`part` too): the demo's header said
"✗ 2 facts lost" (check) beside "3 lost" (survival, an evidence reference the summary need not restate
counted with them) — both true, and a reviewer comparing them stopped trusting either (lead-16-17).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from inspector.domain.plurals import counted
from inspector.domain.vocabulary import OWNER_ONLY_KINDS

if TYPE_CHECKING:
    from inspector.domain.survival import Fact, Verdict

VERDICTS = ("kept", "missing", "contradicted", "unknown")
# The kinds a summary must carry in its text: drift reads each one's loss (protected_missing,
# decision_reversed, open_issue_closed, failure_dropped). An evidence reference, progress, an artifact
# or a reference the protected channel carries beside every summary: one the summary does not name is
# "not restated" (check's "?"), not lost; contradicting one is still lost.
RESTATED_KINDS = OWNER_ONLY_KINDS | {"decision", "open_issue", "failure"}
PARTS = ("kept", "lost", "not_restated", "pending_lost", "not_judged")


def part(verdict: Verdict) -> str:
    """Which count of :class:`Tally` a verdict is in — one rule for check's line and survival's:
    ``lost`` a confirmed fact missing (of a kind the summary must restate) or contradicted (check's
    ✗); ``not_restated`` a confirmed fact of another kind the summary does not name; ``pending_lost``
    a pending (unconfirmed) fact missing or contradicted (binds nothing until confirmed: "?");
    ``not_judged`` the rule cannot tell (``unknown``); ``kept``."""
    if verdict.verdict in ("kept", "unknown"):
        return "kept" if verdict.verdict == "kept" else "not_judged"
    if verdict.fact.status != "active":
        return "pending_lost"
    if verdict.verdict == "missing" and verdict.fact.kind not in RESTATED_KINDS:
        return "not_restated"
    return "lost"


# Why a fact missing or contradicted is not in "lost" — said on its row, where "∅ missing" alone
# left a reviewer to wonder why check's ✗ did not count it.
PART_NOTE = {"not_restated": "not restated: the protected state carries it beside the summary; check says ?, not ✗",
             "pending_lost": "pending: binds nothing until confirmed; check says ?, not ✗"}


class Tally(NamedTuple):
    """A generation's judged facts in five parts that add up to them."""

    kept: int
    lost: int
    not_restated: int
    pending_lost: int
    not_judged: int

    def brief(self) -> str:
        """"3/6 kept, 1 lost, 1 not restated, 1 not judged", a zero left out (a generation's count, or
        one kind's on the Survival tab)."""
        return (f"{self.kept}/{sum(self)} kept" + (f", {self.lost} lost" if self.lost else "") + self.said()
                + (f", {self.not_judged} not judged" if self.not_judged else ""))

    def said(self) -> str:
        """", 1 not restated, 1 pending lost" — the parts a count says only when not zero."""
        return ((f", {self.not_restated} not restated" if self.not_restated else "")
                + (f", {self.pending_lost} pending lost" if self.pending_lost else ""))


@dataclass(slots=True)
class Survival:
    generation: int
    covers: tuple[int, int] | None
    verdicts: list[Verdict]
    # Facts the generation is not judged on, each said why: the header's "◌ 6 pending records"
    # beside "keeps 5 of 5 facts" left the reviewer to guess which one was not counted.
    after: list[Fact] = field(default_factory=list)  # first said after the range the summary covers
    untrusted: list[Fact] = field(default_factory=list)  # proposed by a tool or the model
    unsourced: list[Fact] = field(default_factory=list)  # pending, citing no event: when it was said is unknown
    # filed in review (a correction cites its ledger entry, ``ledger:8``, not an event): made after
    # the summary, so not judged against it — "without a source" said of it read as unsupported
    in_review: list[Fact] = field(default_factory=list)
    # a proposal left pending behind its key's active version (the owner corrected it; ``confirm``
    # refuses it, stale_pending): the key is judged by its active version, not twice (review-18)
    stale: list[Fact] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        c = Counter(v.verdict for v in self.verdicts)
        return {k: c.get(k, 0) for k in VERDICTS}

    @property
    def by_kind(self) -> dict[str, dict[str, int]]:
        out: dict[str, Counter[str]] = {}
        for v in self.verdicts:
            out.setdefault(v.fact.kind, Counter())[v.verdict] += 1
        return {k: {verdict: c.get(verdict, 0) for verdict in VERDICTS} for k, c in out.items()}

    @property
    def tally_by_kind(self) -> dict[str, dict[str, int]]:
        """Each kind's facts in the five parts of :meth:`tally` (``by_kind`` counts verdicts): the tab's
        "evidence_ref: 0/1 kept" beside a header that did not count it lost left the reader to guess
        (survival-words, not done 4)."""
        out: dict[str, Counter[str]] = {}
        for v in self.verdicts:
            out.setdefault(v.fact.kind, Counter())[part(v)] += 1
        return {k: {p: c.get(p, 0) for p in PARTS} for k, c in out.items()}

    def tally(self) -> Tally:
        """Kept, lost (check's ✗), not restated, pending lost, not judged (``unknown``): "keeps 3 of 6
        facts" with the other 3 unknown read as 3 lost (new-user-17), and "3 lost" beside check's
        "✗ 2 facts lost" read as a disagreement (lead-16-17)."""
        c = Counter(part(v) for v in self.verdicts)
        return Tally(*(c.get(p, 0) for p in PARTS))

    def counts_said(self) -> str:
        """"3 of 6 facts kept, 1 lost, 2 not judged" ("…, 1 lost, 1 not restated, 1 not judged"): when
        any is not kept, lost and not judged are said even at zero, so none is inferred; "6 of 6 facts
        kept" alone when every one is."""
        t = self.tally()
        if t.kept == len(self.verdicts):
            return f"{t.kept} of {counted(t.kept, 'fact')} kept"
        return (f"{t.kept} of {counted(len(self.verdicts), 'fact')} kept, {t.lost} lost{t.said()}, "
                f"{t.not_judged} not judged")

    def counts_brief(self) -> str:
        """"3/6 kept, 1 lost, 1 not restated, 1 not judged", a zero left out (what is said adds up to
        the total)."""
        return self.tally().brief()

    def headline(self) -> str:
        return f"gen {self.generation}: {self.counts_said()}" + self.left_out()

    def short_headline(self) -> str:
        """The headline for a narrow header: "gen 3 1/5 kept, 3 lost, 1 not judged · 2 not counted"
        (the Survival tab says which and why). Not "left out" (flow-eight): beside "kept" it read as
        facts the summary lost, the opposite of facts the count does not judge."""
        left = len(self.after) + len(self.untrusted) + len(self.unsourced) + len(self.in_review) + len(self.stale)
        return f"gen {self.generation} {self.counts_brief()}" + (f" · {left} not counted" if left else "")

    def tight_headline(self) -> str:
        """The narrowest form, for a header line the short one does not fit: "gen 3 1/8 kept, 2 lost,
        5 other" — kept and lost (check's ✗) as they are, the other parts (not restated, pending lost,
        not judged: check's "?") summed, so the numbers still add up; the Survival tab names each.
        Cut with "…" instead, "· 14 not counted" lost its last digit ("· 1…")."""
        t = self.tally()
        rest = t.not_restated + t.pending_lost + t.not_judged
        return (f"gen {self.generation} {t.kept}/{len(self.verdicts)} kept" + (f", {t.lost} lost" if t.lost else "")
                + (f", {rest} other" if rest else ""))

    def left_out(self) -> str:
        """What the count leaves out, and why ("· 1 after its range"); empty when nothing is. Short:
        the header shows it among the other badges."""
        parts = [f"{len(self.after)} after its range"] if self.after else []
        if self.untrusted:
            parts.append(f"{len(self.untrusted)} untrusted not counted")
        if self.in_review:
            parts.append(f"{len(self.in_review)} filed in review not counted")
        if self.unsourced:
            parts.append(f"{len(self.unsourced)} without a source not counted")
        if self.stale:
            parts.append(f"{counted(len(self.stale), 'stale proposal')} not counted")
        return "".join(f" · {p}" for p in parts)
