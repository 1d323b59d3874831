"""What a stub claims, checked against the material it names (DESIGN §2 "stub").

A stub is a claim about an observation: this material, at this version and hash, was seen
at ``retrieved_at``, and ``read_slice`` is the part the observation covered. These rules
report a stub whose material was never stored (``material_missing``), a stub whose time
disagrees with the material's (``retrieved_at_mismatch``), and an expansion that reads
outside the observed slice (a note, not a refusal: the bytes are the same original).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(slots=True)
class StubProblem:
    code: str
    session: str
    stub: str
    message: str
    line: int | None = None
    seq: int | None = None  # stubs have no event seq; kept so import reports list every problem alike

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "session": self.session, "stub": self.stub, "line": self.line,
                "message": self.message}


@dataclass(frozen=True, slots=True)
class StubFact:
    stub: str
    material: str
    stub_retrieved_at: str | None
    material_stored: bool
    material_retrieved_at: str | None


def same_time(a: str, b: str) -> bool:
    """RFC 3339 times compared as instants ("…Z" equals "…+00:00"); unparsable ones as text."""
    try:
        return datetime.fromisoformat(a) == datetime.fromisoformat(b)
    except ValueError:
        return a == b


def stub_problems(session: str, facts: list[StubFact], lines: dict[str, int] | None = None) -> list[StubProblem]:
    out: list[StubProblem] = []
    for f in facts:
        line = (lines or {}).get(f.stub)
        if not f.material_stored:
            out.append(StubProblem("material_missing", session, f.stub,
                                   f"stub {f.stub} names material {f.material}, which was never stored in this "
                                   "session: nothing can be expanded through it, and it proves no observation.", line))
        elif f.stub_retrieved_at and f.material_retrieved_at and not same_time(f.stub_retrieved_at,
                                                                                f.material_retrieved_at):
            out.append(StubProblem("retrieved_at_mismatch", session, f.stub,
                                   f"stub {f.stub} says {f.material} was observed at {f.stub_retrieved_at}, but the "
                                   f"stored original was retrieved at {f.material_retrieved_at}: they describe "
                                   "different observations.", line))
    return out


def outside_slice(read_slice: tuple[int, int] | None, start: int, end: int) -> list[tuple[int, int]]:
    """The parts of [start, end) that the stub's observation did not cover (empty: all inside)."""
    if read_slice is None or start >= end:
        return []
    lo, hi = read_slice
    parts = [(start, min(end, lo)), (max(start, hi), end)]
    return [(s, e) for s, e in parts if s < e]
