"""A deterministic, extractive rebuild of the state-bearing facts from raw events.

No model and no paraphrase: for each protected record, the events in range that state
its value verbatim; and the user's own words in range. It is what drift is checked
against besides the state, and it is shown beside the recursive summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.domain.drift import StateFact


@dataclass(frozen=True, slots=True)
class RebuiltFact:
    key: str
    kind: str
    value: str
    status: str
    verbatim_in: tuple[str, ...]  # evt:N where the value appears word for word
    cited: tuple[str, ...]  # the record's own sources

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, "value": self.value, "status": self.status,
                "verbatim_in": list(self.verbatim_in), "cited": list(self.cited)}


@dataclass(frozen=True, slots=True)
class RawEvent:
    seq: int
    kind: str
    trust: str | None
    content: str


def rebuild(events: list[RawEvent], state: list[StateFact]) -> tuple[list[RebuiltFact], list[str]]:
    """Facts with their verbatim evidence, and the user's own statements in range (evt refs)."""
    facts = []
    for fact in state:
        if fact.status == "superseded":
            continue
        hits = tuple(f"evt:{e.seq}" for e in events if fact.value and fact.value in e.content)
        facts.append(RebuiltFact(fact.key, fact.kind, fact.value, fact.status, hits, fact.sources))
    said = [f"evt:{e.seq} {e.content}" for e in events if e.trust == "user" and e.kind == "user_message"]
    return facts, said
