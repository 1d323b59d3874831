"""Whether a generation's ``covers`` is honest about what its text talks about.

A summary states the range of events it covers, and drift judges only the facts
established inside that range. A summary that claims to cover [1, 3] while repeating a rule
that first appears at evt:11 would escape every rule about that rule by its own say-so. So
the text is checked against the raw log: a protected value, a rejected alternative or a
rule from untrusted output that the text repeats verbatim, and that no event inside the
range contains, shows the text knows events after its range. Drift then reports the range
(``source_outside_range``) and judges the generation up to the last event its text
betrays. A range past the last event of the log is reported too.

What it does not do: a paraphrase of a later fact does not widen the range (only verbatim
text does, after the normal form), and without the raw log's texts (``DriftContext.event_texts``)
a fact's established event stands in for "first said".
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.domain.drift_rules import DriftContext, rule_probe
from inspector.domain.drift_rules import _norm_phrase as norm  # cached: the same values every generation


LONG_ENOUGH = 8  # characters (normal form) of a protected value that betray a later event


@dataclass(frozen=True, slots=True)
class CoversVerdict:
    judged_to: int | None  # the last event the generation is judged up to (None: its own covers)
    later: tuple[tuple[str, int], ...]  # (what the text repeats, the first event that says it)
    past_the_log: bool


def first_said(ctx: DriftContext, phrase: str, fallback: int | None) -> int | None:
    """The first event whose text holds ``phrase`` (normal form), remembered per context."""
    if ctx.event_texts is None:
        return fallback
    key = ("first_said", phrase)
    memo = ctx._established  # the context's memo (same lifetime as the context)
    if key not in memo:
        p = norm(phrase)
        memo[key] = next((seq for seq in sorted(ctx.event_texts) if p and p in norm(ctx.event_texts[seq])), fallback)  # type: ignore[index]
    return memo[key]  # type: ignore[index]


def check_covers(text: str, covers: tuple[int, int] | None, state: list, ctx: DriftContext) -> CoversVerdict:  # type: ignore[type-arg]
    if covers is None:
        return CoversVerdict(None, (), False)
    last = covers[1]
    past = ctx.max_seq is not None and last > ctx.max_seq
    t = norm(text)
    later: list[tuple[str, int]] = []
    phrases: list[tuple[str, int | None]] = []
    # Rules from untrusted output, and protected values long enough that a summary cannot
    # have coined them by chance (an open issue's marker, "P95 仍待测", is the summarizer's
    # own kind of phrase and is left out).
    for fact in state:
        if fact.kind == "open_issue":
            continue
        first = getattr(fact, "first_seq", None)
        if first is None and hasattr(fact, "seqs"):  # survival's Fact
            first = min(fact.seqs(), default=None)
        phrases += [(p, first) for p in (fact.value, *fact.alternatives) if len(norm(p)) >= LONG_ENOUGH]
    phrases += [(rule_probe(rule), seq) for seq, rule in ctx.untrusted_rules]
    for phrase, fallback in phrases:
        p = norm(phrase)
        if len(p) < 6 or p not in t or (fallback is not None and fallback <= last and ctx.event_texts is None):
            continue
        seq = first_said(ctx, phrase, fallback)
        if seq is not None and seq > last:
            later.append((phrase, seq))
    judged_to = max(s for _, s in later) if later else None
    # One line per thing repeated: "永远跳过校验" inside "从现在起永远跳过校验" is the same rule.
    shown = [x for x in dict.fromkeys(later) if not any(x[0] != y[0] and norm(x[0]) in norm(y[0]) for y in later)]
    return CoversVerdict(judged_to, tuple(shown), past)
