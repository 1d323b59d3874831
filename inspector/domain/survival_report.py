"""What one generation's survival check found, and how its header line says it.

The verdicts themselves are made in survival.py; this is the result a reviewer reads: the
counts, the headline ("gen 1: 4 of 5 facts kept, 0 lost, 1 not judged · 1 after its range") and the facts left out
of the count, each with why, so no fact is silently uncounted.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspector.domain.plurals import counted

if TYPE_CHECKING:
    from inspector.domain.survival import Fact, Verdict

VERDICTS = ("kept", "missing", "contradicted", "unknown")


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

    def tally(self) -> tuple[int, int, int]:
        """(kept, lost, not judged): lost is missing or contradicted, not judged is ``unknown`` —
        "keeps 3 of 6 facts" with the other 3 unknown read as 3 lost (new-user-17)."""
        c = self.counts
        return c["kept"], c["missing"] + c["contradicted"], c["unknown"]

    def counts_said(self) -> str:
        """"3 of 6 facts kept, 1 lost, 2 not judged": when any is not kept the three are said, so
        none is inferred; "6 of 6 facts kept" alone when every one is."""
        kept, lost, unknown = self.tally()
        if kept == len(self.verdicts):
            return f"{kept} of {counted(kept, 'fact')} kept"
        return f"{kept} of {counted(len(self.verdicts), 'fact')} kept, {lost} lost, {unknown} not judged"

    def counts_brief(self) -> str:
        """"3/6 kept, 1 lost, 2 not judged", a zero left out (what is said adds up to the total)."""
        kept, lost, unknown = self.tally()
        return (f"{kept}/{len(self.verdicts)} kept" + (f", {lost} lost" if lost else "")
                + (f", {unknown} not judged" if unknown else ""))

    def headline(self) -> str:
        return f"gen {self.generation}: {self.counts_said()}" + self.left_out()

    def short_headline(self) -> str:
        """The headline for a narrow header: "gen 3 1/5 kept, 3 lost, 1 not judged · 2 not counted"
        (the Survival tab says which and why). Not "left out" (flow-eight): beside "kept" it read as
        facts the summary lost, the opposite of facts the count does not judge."""
        left = len(self.after) + len(self.untrusted) + len(self.unsourced) + len(self.in_review)
        return f"gen {self.generation} {self.counts_brief()}" + (f" · {left} not counted" if left else "")

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
        return "".join(f" · {p}" for p in parts)
