"""The normalised text of one summary generation (``Said``), and what every rule asks of it.

Every verdict rule (done claims, negation, decisions, untrusted rules, survival) asks the
same text the same questions for every protected fact: where a phrase is, which sentence
holds an offset, which word-list words lie in a clause. ``Said`` normalises the text once
and remembers each answer, so a generation is scanned once per question rather than once
per fact (1,000 generations × 100 facts made the repeated scans the drift bench's hot
spot). The rule modules around it (``said_claims``, ``said_negation``, ``said_decisions``,
``said_untrusted``, ``said_failures``) read it and never normalise on their own.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from inspector.domain.rendered import rendered
from inspector.domain.textnorm import (
    Span,
    clauses,
    holds_value,
    norm,
    norm_keep_lines,
    occurrences,
    phrase_parts,
    sentences,
)
from inspector.domain.wordlists import Hit, WordList, wordlist

# The same protected values, alternatives, anchors and rules are asked about in every
# generation: normalise each once.
norm_phrase = lru_cache(maxsize=16384)(norm)
# A generation's text is normalised by drift, survival, the range check and the field
# timeline alike (case-folding alone costs ~15 µs per 2 KB of Chinese): once per text.
# The text read is what a reader sees (``rendered``: HTML comments left out, struck-out tags,
# JSON as lines).
_keep_lines = lru_cache(maxsize=256)(lambda text: norm_keep_lines(rendered(text)))


@lru_cache(maxsize=4096)
def normal_text(text: str) -> str:
    """``norm(text)``, derived from the line-keeping form ``Said`` holds: the same words
    joined by single spaces (every line break ``splitlines`` cuts at is white space to
    ``str.split``, so joining the lines' words gives what ``norm`` gives)."""
    kept = _keep_lines(text)
    return kept if "\n" not in kept else " ".join(kept.split())


_T = TypeVar("_T")

CANCELS = ("negation", "weakening")  # words that cancel or weaken a protected value


@dataclass(frozen=True, slots=True)
class Said:
    """A generation's text, normalised once, with its sentences.

    Word-list matches and clauses are remembered per span: every protected fact asks about
    the same sentences and clauses, so a generation's text is scanned once per category
    and span rather than once per fact (1,000 generations × 100 facts made the scans the
    hot spot of the drift bench)."""

    text: str
    unresolved: str  # the unresolved markers, normalised and joined
    _memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, text: str, unresolved: Iterable[str] = ()) -> Said:
        return cls(_keep_lines(text), norm(" · ".join(unresolved)))

    @property
    def sentences(self) -> tuple[Span, ...]:
        """Cut on first use: a text with no word any rule reacts to is never cut."""
        found = self._memo.get("sentences")
        if found is None:
            found = self._memo["sentences"] = tuple(sentences(self.text))
        return found  # type: ignore[no-any-return]

    def flat(self) -> str:
        key = ("flat",)
        if key not in self._memo:
            self._memo[key] = self.text.replace("\n", " ")
        return self._memo[key]  # type: ignore[no-any-return]

    def hits(self, category: str | tuple[str, ...], start: int, end: int) -> list[Hit]:
        """The category's matches in ``[start, end)``, exactly as a scan of that span alone
        finds them, taken from one scan of the whole text: a span no whole-text match
        crosses, and whose end does not split a word, holds the same matches (the words
        and patterns look behind the span the same way either way). Otherwise the span is
        scanned on its own."""
        key = ("hits", category, start, end)
        found = self._memo.get(key)
        if found is None:
            text = self.text
            if start == 0 and end == len(text):
                found = self._whole(category)[0]
            else:
                found = []
                for h in self._around(category, start):
                    if h.end <= start:
                        continue
                    if h.start >= end:
                        break
                    if h.start < start or h.end > end:
                        found = None
                        break
                    found.append(h)
                if found is not None and 0 < end < len(text) and _word_char(text[end - 1]) and _word_char(text[end]):
                    found = None
                if found is None:
                    found = self.words(category).hits(text, start, end)
            self._memo[key] = found
        return found  # type: ignore[no-any-return]

    def sentences_holding(self, category: str) -> list[Span]:
        """The sentences holding a word of ``category`` ("rule", "choice_word"), once per generation."""
        key = ("sentences_holding", category)
        found = self._memo.get(key)
        if found is None:
            whole = self.hits(category, 0, len(self.text))
            # Each match placed by bisection: a long text with a common word ("it") in most
            # of its 20,000 sentences made the sentence-by-match test quadratic.
            spans = self.sentences
            held = set()
            for h in whole:
                i = self.sentence_index(h.start)
                if i >= 0 and h.start < spans[i].end:
                    held.add(i)
            found = [spans[i] for i in sorted(held)]
            self._memo[key] = found
        return found  # type: ignore[no-any-return]

    def _around(self, category: str | tuple[str, ...], start: int) -> Iterable[Hit]:
        """The whole-text scan's matches in order, from the last one starting at or before
        ``start`` on. A category whose words hold no sentence end (``WordList.local``) never
        matches across a sentence start, so the whole scan's matches from the start of the
        sentence holding ``start`` on are exactly those of a scan begun there: that scan is
        run (lazily: the caller stops past its span) instead of the whole text's, unless the
        whole text was scanned already. A claim's clause then costs its sentence, not the text."""
        whole = self._memo.get(("whole", category))
        words = self.words(category)
        if whole is None and words.local:
            i = self.sentence_index(start)
            return words.iter_hits(self.text, self.sentences[i].start if i >= 0 else 0)
        hits, starts = self._whole(category)
        return hits[max(0, bisect_right(starts, start) - 1):]

    def words(self, category: str | tuple[str, ...]) -> WordList:
        """The category's word list without the words this text cannot hold (their first
        character is nowhere in it): the same matches, found faster. Which characters the
        text holds is asked once per character, for every category alike."""
        key = ("words", category)
        found = self._memo.get(key)
        if found is None:
            whole = wordlist(category)
            chars = self._memo.get("chars")
            if chars is None:
                chars = self._memo["chars"] = {}
            text = self.text
            present = []
            for c in whole.firsts:
                held = chars.get(c)
                if held is None:
                    held = chars[c] = c in text
                if held:
                    present.append(c)
            found = self._memo[key] = whole.restricted(frozenset(present))
        return found  # type: ignore[no-any-return]

    def first(self, category: str, start: int, end: int) -> Hit | None:
        found = self.hits(category, start, end)
        return found[0] if found else None

    def _whole(self, category: str | tuple[str, ...]) -> tuple[list[Hit], list[int]]:
        key = ("whole", category)
        found = self._memo.get(key)
        if found is None:
            hits = self.words(category).hits(self.text)
            found = self._memo[key] = (hits, [h.start for h in hits])
        return found  # type: ignore[no-any-return]

    def sentence_holding(self, needle: str, *, fold: bool = False) -> str:
        """The first sentence holding ``needle`` (compared lower-cased when ``fold``), stripped as
        findings quote it; ``needle`` itself when no sentence holds it whole."""
        low = needle.lower() if fold else needle
        for s in self.sentences:
            if low in (s.text.lower() if fold else s.text):
                return self.stripped(s)
        return needle

    def stripped(self, sentence: Span) -> str:
        """A sentence's text without its surrounding white space, as findings quote it (cut
        once: a long sentence holding many facts is quoted by each of them)."""
        key = ("stripped", sentence.start, sentence.end)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = sentence.text.strip()
        return found  # type: ignore[no-any-return]

    def sentence_index(self, pos: int) -> int:
        """The index of the last sentence starting at or before ``pos`` (-1: none), by bisection."""
        starts = self._memo.get("starts")
        if starts is None:
            starts = self._memo["starts"] = [s.start for s in self.sentences]
        return bisect_right(starts, pos) - 1

    def sentence_at(self, pos: int) -> Span | None:
        """The sentence holding offset ``pos`` (found by bisection)."""
        i = self.sentence_index(pos)
        if i >= 0 and pos < self.sentences[i].end:
            return self.sentences[i]
        return None

    def mentioning(self, phrase: str, share: float = 0.6) -> list[int]:
        """Indices of the sentences that ``mentions`` the phrase (verbatim, or ``share`` of
        its terms), found from where the phrase and its terms occur in the whole text
        rather than by testing every sentence against every phrase."""
        key = ("mentioning", phrase, share)
        found = self._memo.get(key)
        if found is None:
            p, ts = phrase_parts(phrase)
            chosen: set[int] = set(self.holding(p)) if p else set()
            if p and ts:
                need = max(1, share * len(ts))
                held = sorted((self.holding(t) for t in ts), key=len)
                # A sentence with enough terms holds one of the rarest len - need + 1 of them.
                spare = len(held) - math.ceil(need) + 1
                candidates = set().union(*held[:spare]) if spare > 0 else set()
                chosen |= {i for i in candidates if sum(1 for h in held if i in h) >= need}
            found = self._memo[key] = sorted(chosen)
        return found  # type: ignore[no-any-return]

    def says(self, phrase: str, share: float = 0.6) -> bool:
        """``mentions(self.flat(), phrase)``, remembering which terms the text holds (the
        same terms come back in many values, alternatives and rationales)."""
        key = ("says", phrase, share)
        found = self._memo.get(key)
        if found is None:
            p, ts = phrase_parts(phrase)
            flat = self.flat()
            if not p:
                found = False
            elif p in flat:
                found = True
            elif not ts:
                found = False
            else:
                found = sum(1 for t in ts if self.has(t)) >= max(1, share * len(ts))
            self._memo[key] = found
        return found  # type: ignore[no-any-return]

    def has(self, term: str) -> bool:
        """``term in self.flat()``, remembered: the same terms come back in many values."""
        key = ("has", term)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = term in self.flat()
        return found  # type: ignore[no-any-return]

    def in_text(self, needle: str) -> bool:
        """``needle in self.text``, remembered (line breaks kept, unlike ``has``)."""
        key = ("in_text", needle)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = needle in self.text
        return found  # type: ignore[no-any-return]

    def holding(self, needle: str) -> dict[int, int]:
        """Sentence index → offset (in the text) of the first occurrence of ``needle``
        that lies wholly inside that sentence, in sentence order."""
        key = ("holding", needle)
        found = self._memo.get(key)
        if found is None and "\n" not in needle and self._memo.get(("has", needle)) is False:
            # Known to be nowhere in the flat text, so nowhere in the text either (the two
            # differ only where the text breaks a line and the needle holds no line break).
            found = self._memo[key] = {}
        if found is None:
            spans = self.sentences
            starts = self._memo.get("starts")
            if starts is None:
                starts = self._memo["starts"] = [s.start for s in spans]
            found = {}
            if needle:
                # Once a sentence holds the needle, the rest of that sentence is skipped: a
                # digit such as "3" can occur hundreds of times in one long sentence.
                text, size = self.text, len(needle)
                pos = text.find(needle)
                while pos >= 0:
                    i = bisect_right(starts, pos) - 1
                    if i >= 0 and pos + size <= spans[i].end:
                        found[i] = pos
                        pos = text.find(needle, spans[i].end)
                    else:
                        pos = text.find(needle, pos + 1)
            else:
                for pos in occurrences(self.text, needle):
                    i = bisect_right(starts, pos) - 1
                    if i >= 0 and i not in found and pos + len(needle) <= spans[i].end:
                        found[i] = pos
            self._memo[key] = found
        return found  # type: ignore[no-any-return]

    def cancels(self) -> bool:
        """Whether any cancelling or weakening word is in the text at all (most faithful
        texts have none, and then no protected value needs its sentence read)."""
        found = self._memo.get("cancels")
        if found is None:
            # One search for the first match, not every match: most texts have none, and
            # permission words ("can", "ok") are common enough that listing them all costs.
            found = self._memo["cancels"] = self.words(CANCELS + ("exception", "permission")).first(self.text) is not None
        return found  # type: ignore[no-any-return]

    def clauses(self, sentence: Span) -> list[Span]:
        key = ("clauses", sentence.start)
        if key not in self._memo:
            self._memo[key] = clauses(sentence)
        return self._memo[key]  # type: ignore[no-any-return]

    def remember(self, key: Any, compute: Callable[[], _T]) -> _T:
        """One rule's answer about this text (a value's departure, a once-per-generation
        gate), computed on first asking and kept: every record of a session asks the same
        generation, and the Drift tab asks 1,000 generations × 100 records."""
        memo = self._memo
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        found = memo[key] = compute()
        return found

    def clauses_in(self, indices: Iterable[int], skip: str = "") -> Iterator[tuple[int, Span]]:
        """(sentence index, clause) for each clause of these sentences — a sentence with no cut
        is its own clause — leaving out the clauses that hold ``skip`` (a rule's own value,
        normalised): the scan every "said elsewhere" rule makes over its candidate sentences."""
        for i in indices:
            s = self.sentences[i]
            for c in self.clauses(s) or [s]:
                if skip and skip in c.text:
                    continue
                yield i, c


@dataclass(slots=True)
class Hits:
    words: list[str] = field(default_factory=list)
    sentence: str = ""


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def overlaps(hit: Hit, start: int, end: int) -> bool:
    return hit.start < end and start < hit.end


def value_in(said: Said, value: str) -> bool:
    """The value itself is in the summary (normal form): what survival calls kept."""
    v = norm_phrase(value)
    return bool(v) and holds_value(said.flat(), v)


def stem_in(term: str, text: str) -> bool:
    """The term, or for an English word of six letters or more its first five letters
    ("paginat-ed/-ion"), in the text."""
    if term.isascii() and len(term) >= 6:
        return term[:5] in text
    return term in text


def stem_in_said(said: Said, word: str) -> bool:
    key = ("stem_in", word)
    found = said._memo.get(key)
    if found is None:
        found = said._memo[key] = stem_in(word, said.text)
    return found  # type: ignore[no-any-return]
