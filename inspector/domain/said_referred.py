"""Dismissals and back references: "ignore that constraint", "我们可以忽略该约束".

Split from ``said_lifted`` (which reads a value lifted from afar) because these answer a
narrower question once per generation — is a dismissing word anywhere, and which later
sentence points back at a rule by name and undoes it — and are asked by the drift rules
and the retraction rule as well.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable

from inspector.domain.said import Hits, Said, Span, norm_phrase


def dismisses(said: Said) -> bool:
    """A dismissing word ("ignore", "忽略") is in the text (once per generation)."""
    return _dismisses(said)


def _dismisses(said: Said) -> bool:
    key = ("dismisses",)
    found = said._memo.get(key)
    if found is None:
        text = said.text
        found = said._memo[key] = (any(w in text for w in _DISMISS_LEADS)
                                   and _DISMISS.search(text) is not None)
    return found  # type: ignore[no-any-return]


def _value_spans(said: Said, others: tuple[tuple[str, str], ...]) -> list[tuple[int, int, str]]:
    """Where each protected value stands in the text (once per generation and record set)."""
    key = ("value_spans", others)
    found = said._memo.get(key)
    if found is None:
        found = []
        for other, _ in others:
            o = norm_phrase(other)
            if o:
                found += [(pos, pos + len(o), o) for pos in said.holding(o).values()]
        said._memo[key] = found
    return found  # type: ignore[no-any-return]


def free_clauses(said: Said, others: tuple[tuple[str, str], ...]) -> Callable[[int], list[Span]]:
    """The clauses of sentence ``i`` where no protected value stands. A clause that states another
    value is about that one (a value inside another, "… job 18" in "… job 186", is another value
    too), and one holding the value asked about is that value's own statement: the "said elsewhere"
    rules read neither. Once per generation and sentence, from one index of the values' spans:
    the list of the other values' spans, built for each value and scanned for each clause, was
    97 % of drift over 300 generations × 60 rules of one family (flow-19, bench/drift_lifted.py)."""
    starts, ends, reach = _span_index(said, others)
    memo: dict[int, list[Span]] = said._memo.setdefault(("free_clauses", others), {})

    def holds_a_value(c: Span) -> bool:
        i = bisect_left(starts, c.end) - 1  # the spans starting before the clause ends: 0..i
        while i >= 0 and reach[i] > c.start:  # one of 0..i still ends inside or after the clause's start
            if ends[i] > c.start:
                return True
            i -= 1
        return False

    def free(i: int) -> list[Span]:
        found = memo.get(i)
        if found is None:
            found = memo[i] = [c for c in said.clauses(said.sentences[i]) if not holds_a_value(c)]
        return found

    return free


def _span_index(said: Said, others: tuple[tuple[str, str], ...]) -> tuple[list[int], list[int], list[int]]:
    """The starts and ends of :func:`_value_spans` sorted by start, with each prefix's furthest end."""
    key = ("value_span_index", others)
    found = said._memo.get(key)
    if found is None:
        spans = sorted((a, b) for a, b, _ in _value_spans(said, others))
        reach: list[int] = []
        for _, b in spans:
            reach.append(max(b, reach[-1]) if reach else b)
        found = said._memo[key] = ([a for a, _ in spans], [b for _, b in spans], reach)
    return found  # type: ignore[no-any-return]


_DISMISS = re.compile(r"(?<![\w])(?:ignore|ignored|disregard|disregarded|drop|dropped|forget)(?![\w])|忽略|不用管|不必管|不用遵守")


_REF_KINDS = (("restriction", "constraint", "prohibition", "ban", "limit", "约束", "限制"), ("constraint",)), \
    (("rule", "规定"), ("constraint", "permission")), (("requirement", "要求"), ("constraint", "acceptance"))


def _referring_sentences(said: Said) -> list[tuple[int, list[str]]]:
    """(index, its lifting words) of the sentences holding a back reference other than "it"
    and a word that lifts, permits, cancels or dismisses (once per generation)."""
    key = ("referring_sentences",)
    found = said._memo.get(key)
    if found is None:
        found = []
        named = sorted({i for h in said.hits("back_reference", 0, len(said.text)) if h.word not in ("it", "它")
                        and (i := said.sentence_index(h.start)) >= 0})
        for i in named:
            s = said.sentences[i]
            if _upheld(said, s):
                continue
            words = [h.word for h in said.hits(("lifted", "permission", "negation", "weakening"), s.start, s.end)]
            dismiss = _DISMISS.search(s.text)
            if dismiss:
                words.append(dismiss.group())
            if words:
                found.append((i, words))
        said._memo[key] = found
    return found  # type: ignore[no-any-return]


# "…; the rule stands", "该约束仍然有效": the clause naming the rule says it still holds (verdict-nine).
_UPHELD = re.compile(r"(?<![\w])(?:stands|still stands|holds|still holds|still applies|remains in (?:force|place)|"
                     r"is unchanged|is kept|was kept|is still in force)(?![\w])|仍然有效|依然有效|继续有效|不变|仍然适用")


def _upheld(said: Said, s: Span) -> bool:
    """The clause holding the back reference says the rule still holds and holds no lifting
    word itself: "Nobody said the API may be restarted; the rule stands." upholds the rule —
    its "may" belongs to the other clause, reported as not said (verdict-nine)."""
    for c in said.clauses(s) or [s]:
        refs = [h for h in said.hits("back_reference", c.start, c.end) if h.word not in ("it", "它")]
        if refs and _UPHELD.search(c.text) and not said.hits(("lifted", "permission", "weakening"), c.start, c.end) \
                and not _DISMISS.search(c.text):
            return True
    return False


def _ref_kinds(word: str) -> tuple[str, ...] | None:
    """The kinds of record a back reference names ("that constraint" → constraint); None: any."""
    for nouns, kinds in _REF_KINDS:
        if any(n in word for n in nouns):
            return kinds
    return None


_DISMISS_LEADS = ("ignor", "disregard", "drop", "forget", "忽略", "不用管", "不必管", "不用遵守")


def _referred_back(said: Said, v: str, kind: str | None,
                   others: tuple[tuple[str, str], ...]) -> Hits | None:
    """A later sentence that points back at a rule by name ("that constraint", "该约束" — not
    a bare "it") and lifts, permits or dismisses it ("We can ignore that constraint"), where
    the nearest protected value of the kind it names stated before it is this one."""
    referring = _referring_sentences(said)
    if not referring:
        return None
    mine = said.holding(v)
    if not mine:
        return None
    first_mine = min(mine)
    for j, words in referring:
        s = said.sentences[j]
        if j <= first_mine + 1:  # the value's own sentence and the next are negated_value's
            continue
        refs = [h for h in said.hits("back_reference", s.start, s.end) if h.word not in ("it", "它")]
        kinds = _ref_kinds(refs[0].word)
        if kinds is not None and kind is not None and kind not in kinds:
            continue
        nearest = max((i for i in mine if i < j), default=None)
        if nearest is None:
            continue
        rivals = [o for o, k in others if kinds is None or k in kinds]
        if any(i > nearest for o in rivals if (on := norm_phrase(o)) and on != v and on not in v
               for i in said.holding(on) if i < j):
            continue  # another record of that kind stands between: "that constraint" is that one
        return Hits(words, said.stripped(s))
    return None

__all__ = ["dismisses"]
