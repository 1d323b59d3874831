"""The field timeline: each protected key, generation by generation — kept, rewritten or missing,
or ``after``: first said after what the generation covers, so not judged there, as drift and
survival leave it out ("· after its range"). It was ∅ missing: a rule the user gave after the
first compaction read as lost by it, beside "no drift found" for that generation (newuser-18).

What the Drift tab's grid and the report's table show. It reads the same normal forms as
drift (``normal_text`` of each generation's text, each record's ``norm_value``), so a cell and
a drift finding never disagree about whether a value is in the text; it stands apart from
``drift.find_drift`` because it answers another question (where each key went, not what moved
away) over every generation at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from inspector.domain.said import normal_text
from inspector.domain.textnorm import holds_value
from inspector.domain.vocabulary import OWNER_ONLY_KINDS

if TYPE_CHECKING:
    from inspector.domain.drift import GenerationText, StateFact
    from inspector.domain.drift_context import DriftContext


@dataclass(slots=True)
class FieldTimeline:
    keys: list[str] = field(default_factory=list)
    generations: list[int] = field(default_factory=list)
    cells: dict[str, dict[int, str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"keys": self.keys, "generations": self.generations,
                "cells": {k: {str(g): c for g, c in row.items()} for k, row in self.cells.items()}}


def field_cell(gen: GenerationText, fact: StateFact) -> str:
    """kept / rewritten / missing for one protected key in one generation."""
    claim = next((c for c in gen.claims if c.get("key") == fact.key), None)
    if claim is not None:
        return "kept" if claim.get("text") == fact.value else "rewritten"
    if fact.kind == "open_issue":
        return "kept" if fact.value in gen.unresolved else "missing"
    if fact.kind == "decision" and fact.status == "pending":
        return "kept" if fact.value in gen.unresolved else "missing"
    return "kept" if holds_value(normal_text(gen.text), fact.norm_value) else "missing"


def field_timeline(gens: list[GenerationText], state: list[StateFact], ctx: DriftContext | None = None) -> FieldTimeline:
    """Every tracked key's cell in every generation; with ``ctx`` (the raw log's facts, as drift
    reads them) a generation's range is the one drift judges (a text that knows later events is
    judged up to them) and a record starts where the log established it, as drift says."""
    out, ordered, tracked = _cells(gens, state)
    _not_yet(out, ordered, tracked, state, ctx)
    return out


def _not_yet(out: FieldTimeline, ordered: list[GenerationText], tracked: list[StateFact], state: list[StateFact],
             ctx: DriftContext | None) -> None:
    """A missing cell of a record first said after the generation's range — or written by the owner
    after the generation was (owner_corrected) — becomes ``after`` (never a kept or rewritten one: what
    the text holds is shown as it is)."""
    from inspector.domain.covers_check import check_covers
    from inspector.domain.owner_corrected import corrected_after, corrected_at

    owned = [fact for fact in tracked if corrected_at(fact.sources) is not None]  # values written in review
    for gen in ordered:
        for fact in owned:  # a value the owner wrote after this text was written: not judged there either
            if out.cells[fact.key][gen.generation] == "missing" and corrected_after(fact.sources, gen.written_at):
                out.cells[fact.key][gen.generation] = "after"
        if gen.covers is None:
            continue
        last = gen.covers[1]
        if ctx is not None:
            judged = check_covers(gen.text, gen.covers, state, ctx).judged_to
            last = max(last, judged) if judged is not None else last
        for fact in tracked:
            if fact.first_seq is None or out.cells[fact.key][gen.generation] != "missing":
                continue
            start = (ctx.established(fact.value, fact.sources, fact.first_seq) if ctx is not None else None) \
                or fact.first_seq
            if start > last:
                out.cells[fact.key][gen.generation] = "after"


def _cells(gens: list[GenerationText], state: list[StateFact]) -> tuple[FieldTimeline, list[GenerationText],
                                                                        list[StateFact]]:
    tracked = [s for s in state if (s.status == "active" and (s.kind in OWNER_ONLY_KINDS or s.kind == "open_issue"))
               or (s.kind == "decision" and s.status == "pending")]
    ordered = sorted(gens, key=lambda g: g.generation)
    out = FieldTimeline([s.key for s in tracked], [g.generation for g in ordered])
    # ``field_cell`` for every (key, generation), with each generation's claims (the first
    # one per key, as field_cell reads them), markers and normal form worked out once
    # rather than once per key (1,000 generations × 84 keys in the drift bench).
    prepared = [(g.generation, _first_claims(g), g.unresolved, normal_text(g.text)) for g in ordered] if tracked else []
    found = [held_in(text) for _, _, _, text in prepared]  # what drift already found in each text
    claimed = {k for _, claims, _, _ in prepared for k in claims}  # keys some generation claims
    for fact in tracked:
        key, value, norm_value, whole = fact.key, fact.value, fact.norm_value, fact.bounded
        by_marker = fact.kind == "open_issue" or (fact.kind == "decision" and fact.status == "pending")
        if key not in claimed:  # no claim to read: the markers or the text alone decide
            out.cells[key] = ({number: "kept" if value in unresolved else "missing" for number, _, unresolved, _ in prepared}
                              if by_marker else
                              {number: "kept" if held.get(norm_value) or held_after_get(text, norm_value, whole, held)
                               else "missing" for (number, _, _, text), held in zip(prepared, found, strict=False)})
        elif by_marker:
            out.cells[key] = {number: ("missing" if value not in unresolved else "kept") if (claim := claims.get(key)) is None
                              else "kept" if claim.get("text") == value else "rewritten"
                              for number, claims, unresolved, _ in prepared}
        else:
            out.cells[key] = {number: _cell(text, norm_value, whole, held) if (claim := claims.get(key)) is None
                              else "kept" if claim.get("text") == value else "rewritten"
                              for (number, claims, _, text), held in zip(prepared, found, strict=False)}
    return out, ordered, tracked


def _cell(text: str, norm_value: str, whole: bool, held: dict[str, bool]) -> str:
    return "kept" if value_held(text, norm_value, whole, held) else "missing"


def held_after_get(text: str, norm_value: str, whole: bool, held: dict[str, bool]) -> bool:
    """``value_held`` after ``held.get`` gave no True: a False stands, nothing known is asked
    (the common case, a dictionary lookup in the comprehension, costs no call)."""
    return held.get(norm_value) is None and value_held(text, norm_value, whole, held)


# Whether each record's value is in each generation's normal text, by text: the Drift tab asks
# drift (protected_missing) and then the timeline about the same 1,000 × 50 (text, value) pairs
# of the bench, and a dictionary answers in a tenth of a substring test. The answer is a
# function of the two strings alone (``whole`` is ``bounded(norm_value)``), so a dictionary
# shared between threads can only ever hold the right one.
_HELD: dict[str, dict[str, bool]] = {}
_HELD_TEXTS = 4096


def held_in(text_norm: str) -> dict[str, bool]:
    """The values known to be (True) or not to be (False) in ``text_norm``, filled by ``value_held``."""
    found = _HELD.get(text_norm)
    if found is None:
        if len(_HELD) >= _HELD_TEXTS:
            _HELD.clear()
        found = _HELD[text_norm] = {}
    return found


def value_held(text_norm: str, norm_value: str, whole: bool, held: dict[str, bool]) -> bool:
    """The value is in the text: as a substring, or for a ``whole`` value (one starting or
    ending with a digit) not inside a longer number. ``held`` is ``held_in(text_norm)``."""
    found = held.get(norm_value)
    if found is None:
        found = held[norm_value] = holds_value(text_norm, norm_value) if whole else norm_value in text_norm
    return found


def _first_claims(gen: GenerationText) -> dict[Any, dict[str, Any]]:
    """Each key's first claim (a key no record can have, such as a list, is left out)."""
    out: dict[Any, dict[str, Any]] = {}
    for c in gen.claims:
        try:
            out.setdefault(c.get("key"), c)
        except TypeError:
            continue
    return out
