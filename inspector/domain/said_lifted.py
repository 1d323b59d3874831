"""A protected value lifted or changed from afar: a sentence that is not the value's own
nor the next one, yet plainly undoes it.

``said_negation`` reads the value's own sentence and the very next one. A summary that
states "Constraint: do not modify the production database." and, five sentences later,
"Update: production writes are fine now." passed every rule, and so did "Keep the batch
size at 500 rows" followed later by "The batch size was raised to 5000 rows". A clause
anywhere in the text counts when it names the value's subject and:

- **lifts it** — a `lifted` word ("no longer needs", "no longer forbidden", "waived", "not
  required", "fine now", "不再", "已解除", "可以…了"; a bare "no longer" is not one: "fixing it
  is no longer blocked" lifts nothing); for a prohibition, not beside a permission word;
- **permits what a prohibition forbids** — a `permission` word ("allowed", "fine", "can",
  "允许") and no `denial` word ("not", "never", "不", "禁止") in the clause;
- **gives another number for it** — a number other than the value's, next to the value's
  own unit word ("5000 rows" for "500 rows", "port 9090" for "port 8080"), in a clause naming
  half of the value's other words.

"Names the subject": the value's words less its prohibition words ("modify", "production",
"database"), each also by a synonym from `subject_synonyms` ("writes" for "modify") or its
stem; at least two of them and half; for a permission, the action (the first subject word)
and, in English, the word after it ("production") among them — "you may read the staging database"
permits nothing the production rule forbids. A later sentence that names the rule by a back
reference other than "it" ("that constraint", "该约束") and lifts, permits or dismisses it
("We can ignore that constraint") undoes the nearest protected value stated before it. Not
read: a value referred to only by "it" two sentences away.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache

from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_limits_plain import measured_only
from inspector.domain.said_negation import RULE_NOUN, names_word, negated_value
from inspector.domain.said_negation import _subject_words as subject_words
from inspector.domain.said_referred import _dismisses, _referred_back, free_clauses
from inspector.domain.textnorm import CJK, STOPWORDS, Span
from inspector.domain.wordlists import wordlist

_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w]|[.,]\d)")
_WORD = re.compile(r"[a-z\u3400-\u9fff][\w\u3400-\u9fff-]*")


def _named(word: str, text: str) -> bool:
    return names_word(word, text)


@lru_cache(maxsize=4096)
def _prohibition(value: str) -> bool:
    return wordlist("constraint").first(norm_phrase(value)) is not None


@lru_cache(maxsize=4096)
def _number_and_unit(value: str) -> tuple[str, str, bool] | None:
    """The value's one number and the unit word next to it: after it ("500 rows", "5 mb",
    "3 次") if that is a unit, else before it ("port 8080"). A unit is an English word that
    is not a stop word, or one or two Chinese characters; "采用流式导出 5" has none (the 5
    names an item, it measures nothing), and neither has a value with several numbers."""
    v = norm_phrase(value)
    numbers = _NUMBER.findall(v)
    if len(numbers) != 1:
        return None
    m = _NUMBER.search(v)
    assert m is not None
    after = _WORD.match(v[m.end():].lstrip())
    if after and _unit(after.group()):
        return numbers[0], after.group(), True
    before = _WORD.findall(v[:m.start()])
    return (numbers[0], before[-1], False) if before and _unit(before[-1], before=True) else None


# Words before a number that name an item, not a quantity: "job 18" and "job 186" are two jobs.
_ITEM_NOUNS = frozenset("job jobs step steps issue issues pr prs ticket tickets item items task tasks case cases "
                        "test tests endpoint endpoints module modules service services id no number phase stage "
                        "part chapter section line lines row page pages batch build run attempt round day week "
                        "migration version node worker shard cluster region room table".split())


# Units a number measures in; after a number, a plural noun counts too ("500 rows", "3 retries").
_UNITS = frozenset("ms s sec secs second seconds min mins minute minutes h hr hrs hour hours d day days kb mb gb tb "
                   "kib mib gib tib b byte bytes k m % percent pct x".split())


def _unit(word: str, before: bool = False) -> bool:
    if CJK.search(word):
        return len(word) <= 2
    if not word.isascii() or word in STOPWORDS:
        return False
    if before:  # "port 8080", "python 3": a name, not an item number ("job 18")
        return word not in _ITEM_NOUNS
    # after the number: a unit, or a plural noun that is not a verb of the rules ("186 passes")
    return word in _UNITS or (len(word) >= 4 and word.endswith("s") and not word.endswith("ss")
                              and wordlist(("done", "not_done")).first(word) is None)


def negated_or_lifted(said: Said, value: str, others: tuple[tuple[str, str], ...] = (),
                      kind: str | None = None) -> Hits | None:
    """``negated_value`` (the value's own sentence and the next), else a clause anywhere
    else that lifts, permits against or renumbers it — read only when the value itself
    stands in the text (a text without it is already ``protected_missing``). ``others``: the
    session's protected (value, kind) pairs, ``kind`` this value's; a sentence that states another is about it ("采用流式
    导出 11" is decision 11, not decision 5 renumbered)."""
    near = negated_value(said, value)
    if near is not None:
        return near
    v = norm_phrase(value)
    if not v:
        return None
    numbered = _number_and_unit(value)
    # Every lifting word is a cancelling or permission word (``said.cancels``), asked once per
    # generation: a text with none, no dismissing word and no unit of this value can lift,
    # dismiss or renumber nothing (the usual case).
    if not (said.cancels() or _dismisses(said) or (numbered and said.has(numbered[1]))
            or (kind == "goal" and goal_restated(said))):
        return None
    found = said.holding(v)
    if not found:
        return None
    spans = [(pos, pos + len(v)) for pos in found.values()]
    return (lifted_elsewhere(said, value, spans, free_clauses(said, others))
            or (_referred_back(said, v, kind, others) if said.cancels() or _dismisses(said) else None)
            or (_goal_replaced(said, value, spans) if kind == "goal" else None))


def _goal_replaced(said: Said, value: str, spans: list[tuple[int, int]]) -> Hits | None:
    """Another sentence that sets a new goal about the same subject ("The goal is now to
    document the export timeout instead of fixing it", "New goal: a postmortem about the
    export timeout"): a `goal_change` word (a change, not a restatement: "the goal is" alone
    is not one) and half the goal's subject words, in a sentence that does not state the
    goal itself."""
    held = said.sentences_holding("goal_change")
    if not held:
        return None
    own = subject_words(value)
    if len(own) < 2:
        return None
    need = max(2, math.ceil(0.5 * len(own)))
    for sent in held:
        if any(overlaps_span(sent, a, b) for a, b in spans):
            continue
        if sum(1 for w in own if _named(w, sent.text)) >= need:
            words = [h.word for h in said.hits("goal_change", sent.start, sent.end)]
            return Hits(words, said.stripped(sent))
    return None


# Every goal_change word holds one of these (words/en.json, zh.json): a text with none of
# them holds no such word, told by a few substring tests instead of a scan.
_GOAL_CHANGE_KEYS = ("goal", "task", "plan", "scratch", "forget", "switch", "目标", "任务")


def goal_restated(said: Said) -> bool:
    """A goal-change word is in the text (once per generation; most texts hold none of the
    words, which a substring test of each tells faster than a scan)."""
    key = ("goal_change_any",)
    found = said._memo.get(key)
    if found is None:
        text = said.text
        found = said._memo[key] = (any(k in text for k in _GOAL_CHANGE_KEYS)
                                   and bool(said.sentences_holding("goal_change")))
    return found  # type: ignore[no-any-return]


def unit_of(value: str) -> str | None:
    """The unit word beside the value's one number ("rows" of "500 rows"), or None."""
    numbered = _number_and_unit(value)
    return numbered[1] if numbered else None


def unit_in(said: Said, value: str) -> bool:
    """The value has a number with a unit, and the unit is in the text: a renumbering can be there."""
    numbered = _number_and_unit(value)
    return numbered is not None and said.has(numbered[1])


def lifted_elsewhere(said: Said, value: str, spans: list[tuple[int, int]],
                     free: Callable[[int], list[Span]] | None = None) -> Hits | None:
    """The first clause outside ``spans`` (where the value itself stands) that lifts,
    permits against, or renumbers the value; ``free`` gives a sentence's clauses where no
    protected value stands (one stating another value is about that one). Only sentences
    holding a lifting or permission word (or, for a value with a number, its unit word) are
    read, and only when the text names enough of the value's subject anywhere: every protected
    value of every generation asks, and most texts answer no at the first question."""
    own = subject_words(value)
    if len(own) < 2:
        return None
    numbered = _number_and_unit(value)
    candidates = _lifting_sentences(said) if said.cancels() else []
    if numbered:
        candidates = sorted(set(candidates) | set(said.holding(numbered[1])))
    if not candidates:
        return None
    need = max(2, math.ceil(0.5 * len(own)))
    flat = said.flat()
    if sum(1 for w in own if _named_in_said(said, w, flat)) < need:
        return None
    prohibition = _prohibition(value)
    lifting = set(_lifting_sentences(said)) if said.cancels() else set()
    for i in candidates:
        # a clause stating a protected value is skipped whatever the rules would find in it
        # ("Never touch thing 5." renumbers "thing 7"): a sentence of such clauses only is not read
        clauses = free(i) if free is not None else said.clauses(said.sentences[i])
        if not clauses:
            continue
        if i not in lifting and (numbered is None or not _renumbers(said, i, numbered)):
            continue  # held only for its unit word, and no other number stands beside it
        s = said.sentences[i]
        for c in clauses:
            if any(overlaps_span(c, a, b) for a, b in spans):
                continue
            found = _clause_undoes(said, c, value, own, prohibition, numbered)
            if found:
                return Hits(found, said.stripped(s))
    return None


@lru_cache(maxsize=4096)
def _near(numbered: tuple[str, str, bool]) -> re.Pattern[str]:
    """A number beside the value's unit (after it: "5000 rows"; before it: "port 9090")."""
    _, unit, after = numbered
    return re.compile(rf"(?<![\w.])(\d+(?:[.,]\d+)*)\s*{re.escape(unit)}(?![\w])" if after
                      else rf"(?<![\w]){re.escape(unit)}\s*(?:of\s+|to\s+|at\s+|=\s*|:\s*)?(\d+(?:[.,]\d+)*)"
                           rf"(?![\w]|[.,]\d)")


def _renumbers(said: Said, i: int, numbered: tuple[str, str, bool]) -> bool:
    """Sentence ``i`` gives another number beside the value's unit, and not the value's own number."""
    number, unit, after = numbered
    key = ("renumbers", unit, after, i)
    found = said._memo.get(key)
    if found is None:  # the numbers beside the unit, and all the sentence's: once per sentence and unit
        text = said.sentences[i].text
        found = said._memo[key] = (frozenset(m.group(1) for m in _near(numbered).finditer(text)),
                                   frozenset(_NUMBER.findall(text)))
    beside, held = found
    return bool(beside - {number}) and number not in held


def _named_in_clause(said: Said, c: Span, word: str) -> bool:
    """``_named`` for one clause, remembered: the same subject words come back in many values."""
    key = ("clause_named", c.start, word)
    found = said._memo.get(key)
    if found is None:
        found = said._memo[key] = _named(word, c.text)
    return found  # type: ignore[no-any-return]


def _named_in_said(said: Said, word: str, flat: str) -> bool:
    key = ("lift_named", word)
    found = said._memo.get(key)
    if found is None:
        found = said._memo[key] = _named(word, flat)
    return found  # type: ignore[no-any-return]


def _lifting_sentences(said: Said) -> list[int]:
    """Indices of the sentences holding a lifting or permission word (once per generation)."""
    key = ("lifting_sentences",)
    found = said._memo.get(key)
    if found is None:
        held = said.sentences_holding("lifted") + said.sentences_holding("permission")
        starts = {s.start for s in held}
        found = said._memo[key] = [i for i, s in enumerate(said.sentences) if s.start in starts]
    return found  # type: ignore[no-any-return]


def overlaps_span(c: Span, start: int, end: int) -> bool:
    return c.start < end and start < c.end


def _another_item(said: Said, c: Span, value: str) -> bool:
    """The clause's sentence numbers an item, and not with the value's numbers: "约束 3 已取消"
    is about constraint 3, not "约束 36：值 36 must hold", though their words are the same."""
    numbers = _numbers_of(value)
    sentence = said.sentence_at(c.start)
    held = set(_NUMBER.findall(sentence.text if sentence is not None else c.text))
    return bool(held) and bool(numbers) and not (numbers & held)


@lru_cache(maxsize=4096)
def _numbers_of(value: str) -> frozenset[str]:
    return frozenset(_NUMBER.findall(norm_phrase(value))) if value else frozenset()


_LABEL = re.compile(r"^[\s>*•+\-\d.)|#]*([^:：,，;；.。!?]{2,40}?)\s*[:：]\s*$")


def _label_of(said: Said, c: Span) -> str:
    """The label a list item or a line opens with, when ``c`` is the clause right after it
    ("- Audit logs: may be deleted" → "audit logs"); "" otherwise."""
    sentence = said.sentence_at(c.start)
    if sentence is None:
        return ""
    m = _LABEL.match(sentence.text[:c.start - sentence.start])
    return m.group(1) if m else ""


def _clause_undoes(said: Said, c: Span, value: str, own: tuple[str, ...], prohibition: bool,
                   numbered: tuple[str, str, bool] | None) -> list[str]:
    named = [w for w in own if _named_in_clause(said, c, w)]
    label = _label_of(said, c) if len(named) < max(2, math.ceil(0.5 * len(own))) else ""
    if label:  # "- Audit logs: may be deleted after review": the item's label is the clause's subject
        named = [w for w in own if _named_in_clause(said, c, w) or _named(w, label)]
    if len(named) < max(2, math.ceil(0.5 * len(own))):
        return []
    if said.first("uncertain", c.start, c.end) is not None or "?" in c.text:
        return []  # a question or a hedge ("asked whether pushing to main is ever OK") lifts nothing
    text = c.text
    lifts = said.hits("lifted", c.start, c.end)
    permits = said.hits("permission", c.start, c.end)
    if (lifts or permits) and _another_item(said, c, value):
        lifts = permits = []
    if lifts and prohibition and _act_not_needed(text, [h.word for h in lifts]):
        lifts = []
    if lifts and not (prohibition and permits):
        return [h.word for h in lifts]
    if prohibition and permits and not said.hits("denial", c.start, c.end):
        cjk = CJK.search(own[0]) is not None
        if own[0] in named and (cjk or own[1] in named):
            return [h.word for h in permits]
    if numbered and not label:  # a renumbered item's label is the limit rules' (said_limits), not read here
        number, unit, _ = numbered
        rest = [w for w in own if w != unit and not w.isdigit()]
        if rest and sum(1 for w in named if w in rest) >= max(1, math.ceil(0.5 * len(rest))):
            for m in _near(numbered).finditer(text):
                if m.group(1) != number and number not in _NUMBER.findall(text) and not measured_only(value, text):
                    return [f"{m.group(1)} (the value says {number})"]
    return []


def _act_not_needed(text: str, lift_words: list[str]) -> bool:
    """Every lifting word of the clause is a need word and the clause names no rule: "Restarting the
    API is no longer needed …" agrees with the prohibition (said_negation.act_not_needed)."""
    return all(_NEED.search(w) for w in lift_words) and RULE_NOUN.search(text) is None


_NEED = re.compile(r"need|necessary|required|需要|必要|必须")


__all__ = ["goal_restated", "lifted_elsewhere", "negated_or_lifted", "unit_in", "unit_of"]
