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

from bisect import bisect_right
from dataclasses import dataclass

from inspector.domain.drift_rules import DriftContext, rule_probe
from inspector.domain.said import (
    norm_phrase as norm,  # cached: the same values every generation
)
from inspector.domain.said import normal_text
from inspector.domain.textnorm import norm as plain_norm

LONG_ENOUGH = 8  # characters (normal form) of a protected value that betray a later event


@dataclass(frozen=True, slots=True)
class CoversVerdict:
    judged_to: int | None  # the last event the generation is judged up to (None: its own covers)
    later: tuple[tuple[str, int], ...]  # (what the text repeats, the first event that says it)
    past_the_log: bool


def first_said(ctx: DriftContext, phrase: str, fallback: int | None) -> int | None:
    """The first event whose text holds ``phrase`` (normal form), or ``None`` when no event
    does (then the summary cannot be said to repeat an event); without event texts, the
    fact's first source. One search in the events' joined text, remembered per context."""
    if ctx.event_texts is None:
        return fallback
    memo = ctx._established  # the context's memo (same lifetime as the context)
    key = ("first_said", phrase)
    if key not in memo:
        joined, starts, seqs = _joined(ctx)
        pos = joined.find(norm(phrase)) if phrase else -1
        memo[key] = seqs[bisect_right(starts, pos) - 1] if pos >= 0 else None
    return memo[key]  # type: ignore[no-any-return]


def _joined(ctx: DriftContext) -> tuple[str, list[int], list[int]]:
    key = ("joined",)
    memo = ctx._established
    if key not in memo:
        assert ctx.event_texts is not None
        seqs = sorted(ctx.event_texts)
        parts, starts, at = [], [], 0
        for seq in seqs:
            text = plain_norm(ctx.event_texts[seq])  # not cached: each event is read once
            starts.append(at)
            parts.append(text)
            at += len(text) + 1
        memo[key] = ("\n".join(parts), starts, seqs)  # type: ignore[assignment]
    return memo[key]  # type: ignore[return-value]


def check_covers(text: str, covers: tuple[int, int] | None, state: list, ctx: DriftContext) -> CoversVerdict:  # type: ignore[type-arg]
    if covers is None:
        return CoversVerdict(None, (), False)
    last = covers[1]
    past = ctx.max_seq is not None and last > ctx.max_seq
    t: str | None = None  # the text's normal form, made only when a phrase must be looked for
    later: list[tuple[str, int]] = []
    candidates = [(phrase, fallback) for phrase, fallback in _phrases(state, ctx) if fallback is None or fallback > last]
    for phrase, fallback in candidates:
        # Established inside the range: nothing later to betray (filtered above). Where the
        # log first says it is remembered per context; the text is searched only then.
        seq = first_said(ctx, phrase, fallback)
        if seq is None or seq <= last:
            continue
        if t is None:
            t = normal_text(text)
        if norm(phrase) in t:
            later.append((phrase, seq))
    judged_to = max(s for _, s in later) if later else None
    # One line per thing repeated: "永远跳过校验" inside "从现在起永远跳过校验" is the same rule.
    shown = [x for x in dict.fromkeys(later) if not any(x[0] != y[0] and norm(x[0]) in norm(y[0]) for y in later)]
    return CoversVerdict(judged_to, tuple(shown), past)


def _phrases(state: list, ctx: DriftContext) -> list[tuple[str, int | None]]:  # type: ignore[type-arg]
    """What a text may betray, with the event that establishes it (once per state and context)."""
    key = ("phrases", id(state), len(state))
    memo = ctx._established
    if key in memo:
        return memo[key]  # type: ignore[return-value]
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
    memo[key] = out = [(p, f) for p, f in phrases if len(norm(p)) >= 6]  # type: ignore[assignment]
    return out
