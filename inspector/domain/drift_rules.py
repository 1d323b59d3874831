"""Drift rules that read what a summary *says* about a fact, not only whether it is there.

Each rule names the key, the generation and the words that triggered it, and stays
silent unless its evidence is in the text: a faithful generation yields nothing. Words
come from ``words/*.json`` (see ``wordlists``). Rules only judge facts whose sources lie
inside the range the generation covers — a summary is not blamed for what came later.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from inspector.domain.failures import FailedResult, file_names, identifiers
from inspector.domain.subjects import call_subject, glossed
from inspector.domain.textnorm import (
    CJK,
    STOPWORDS,
    Span,
    clauses,
    find_word,
    norm,
    norm_keep_lines,
    occurrences,
    phrase_parts,
    sentences,
    terms,
)
from inspector.domain.wordlists import Hit, wordlist

NEGATION_REACH = 14  # characters before a done word in which "not"/"未" cancels the claim

# The same protected values, alternatives, anchors and rules are asked about in every
# generation: normalise each once.
_norm_phrase = lru_cache(maxsize=16384)(norm)
_CANCELS = ("negation", "weakening")  # words that cancel or weaken a protected value


@dataclass(frozen=True, slots=True)
class ActionFact:
    id: str
    intent: str | None
    status: str
    tool: str | None = None


@dataclass(frozen=True, slots=True)
class DriftContext:
    """What drift needs from the raw log besides the protected state."""

    failures: tuple[FailedResult, ...] = ()
    actions: tuple[ActionFact, ...] = ()
    untrusted_rules: tuple[tuple[int, str], ...] = ()  # (seq, rule-like sentence from tool/model text)
    max_seq: int | None = None
    event_seqs: frozenset[int] | None = None
    # Events that record a compaction itself (boundary marker, the summary's own line): a
    # generation citing them cites its origin, not a fact outside its range.
    carriers: frozenset[str] = frozenset()
    # The ids of the session's materials, stubs and actions (None: not known, not judged).
    known_refs: frozenset[str] | None = None
    # Event texts by seq (None: not known). A fact is established at the first of its
    # sources whose text carries its value ("P95 仍待测" cited from evt:11 and evt:12 is
    # only said at evt:12), else at its first source.
    event_texts: dict[int, str] | None = None
    _established: dict[Any, int | None] = field(default_factory=dict, compare=False,
                                                                        hash=False, repr=False)

    def established(self, value: str, sources: tuple[str, ...], first: int | None) -> int | None:
        if self.event_texts is None or first is None:
            return first
        key = (value, sources)
        if key not in self._established:
            v = norm(value)
            seqs = sorted(int(x[4:]) for x in sources if x.startswith("evt:") and x[4:].isdigit())
            self._established[key] = next((n for n in seqs if v and v in norm(self.event_texts.get(n, ""))), first)
        return self._established[key]


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
        return cls(norm_keep_lines(text), norm(" · ".join(unresolved)))

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
            whole, starts = self._whole(category)
            text = self.text
            if start == 0 and end == len(text):
                found = whole
            else:
                found = []
                for h in whole[max(0, bisect_right(starts, start) - 1):]:
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
                    found = wordlist(category).hits(text, start, end)
            self._memo[key] = found
        return found  # type: ignore[no-any-return]

    def first(self, category: str, start: int, end: int) -> Hit | None:
        found = self.hits(category, start, end)
        return found[0] if found else None

    def _whole(self, category: str | tuple[str, ...]) -> tuple[list[Hit], list[int]]:
        key = ("whole", category)
        found = self._memo.get(key)
        if found is None:
            hits = wordlist(category).hits(self.text)
            found = self._memo[key] = (hits, [h.start for h in hits])
        return found  # type: ignore[no-any-return]

    def sentence_at(self, pos: int) -> Span | None:
        """The sentence holding offset ``pos`` (found by bisection)."""
        starts = self._memo.get("starts")
        if starts is None:
            starts = self._memo["starts"] = [s.start for s in self.sentences]
        i = bisect_right(starts, pos) - 1
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
                found = sum(1 for t in ts if self._has(t)) >= max(1, share * len(ts))
            self._memo[key] = found
        return found  # type: ignore[no-any-return]

    def _has(self, term: str) -> bool:
        key = ("has", term)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = term in self.flat()
        return found  # type: ignore[no-any-return]

    def holding(self, needle: str) -> dict[int, int]:
        """Sentence index → offset (in the text) of the first occurrence of ``needle``
        that lies wholly inside that sentence, in sentence order."""
        key = ("holding", needle)
        found = self._memo.get(key)
        if found is None:
            spans = self.sentences
            starts = self._memo.get("starts")
            if starts is None:
                starts = self._memo["starts"] = [s.start for s in spans]
            found = {}
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
            found = self._memo["cancels"] = wordlist(_CANCELS + ("exception", "permission")).first(self.text) is not None
        return found  # type: ignore[no-any-return]

    def clauses(self, sentence: Span) -> list[Span]:
        key = ("clauses", sentence.start)
        if key not in self._memo:
            self._memo[key] = clauses(sentence)
        return self._memo[key]  # type: ignore[no-any-return]


@dataclass(slots=True)
class Hits:
    words: list[str] = field(default_factory=list)
    sentence: str = ""


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _overlaps(hit: Hit, start: int, end: int) -> bool:
    return hit.start < end and start < hit.end


def _negated_before(text: str, pos: int, floor: int) -> bool:
    """A negation right before the done word, looking back no further than ``floor`` (the
    start of the clause, or the subject when it comes first): the "未" of the previous
    sentence's "结果未知" or of "之前未测的 P95" says nothing about this claim."""
    window = text[max(floor, pos - NEGATION_REACH):pos]
    # "不" only right before the claim ("不成功"): further back it is usually another
    # clause's prohibition ("不得修改生产库，测试已通过").
    return bool(re.search(r"(?<![\w])(?:not|never|no|yet to|n't)(?![\w])|未|没|尚未|还没|并非|不是|非|不.{0,2}$", window))


# Words that put an earlier "still open" in the past: "the item that was open is now
# resolved", "原先仍待测，现已通过".
_NOW = re.compile(r"(?<![\w])(?:now|by now|since then|meanwhile)(?![\w])|现已|现在|如今|目前已|已经")
# What may stand before a done word in a clause that is only a verdict ("P95: passed",
# "P95 测完了，已达标", "P95 is 180 ms, well under the limit").
_FILLER = re.compile(r"(?<![\w])(?:now|it|is|are|was|has|have|been|all|and|also|well|so|then|finally|already|fully|"
                     r"everything|looks?|seems?)(?![\w])|现|已|也|都|均|全部|终于|已经|目前|现在|看起来|[\s\-–—:：,，.;；!]")


def _verdict_only(said: Said, c: Span, pos: int) -> bool:
    """The clause holds nothing but filler before its done word: a verdict about the
    subject named in an earlier clause."""
    return not _FILLER.sub("", said.text[c.start:pos]).strip()


def _claim_in(said: Said, c: Span, subject_pos: int) -> Hits | None:
    """A done word in clause ``c`` that is not negated (between the subject, or the clause
    start, and the word), not hedged ("whether", "may have", "是否", "未知" anywhere in the
    clause), and not preceded by "still/pending" after the subject — unless a "now" after
    that word puts it in the past ("was open, now resolved")."""
    if said.first("uncertain", c.start, c.end) is not None:
        return None
    sent = said.sentence_at(c.start)
    if sent is not None and sent.text.rstrip()[-1:] in ("?", "？"):  # a question claims nothing
        return None
    for h in said.hits("done", c.start, c.end):
        # An aim, not a claim: "目标：让导出测试通过", "goal: make the tests pass".
        label = said.text[max(sent.start if sent else 0, c.start - 12):c.start]
        if said.first("aim", c.start, h.start) is not None or wordlist("aim").first(label) is not None:
            continue
        floor = subject_pos if c.start <= subject_pos < h.start else c.start
        if _negated_before(said.text, h.start, floor):
            continue
        lo, hi = sorted((subject_pos, h.start))
        pending = [b for b in said.hits("not_done", lo, hi) if not _overlaps(b, h.start, h.end)]
        if pending and not (subject_pos < h.start and _NOW.search(said.text, pending[-1].end, h.end)):
            continue
        return Hits([h.word])
    return None


def negated_value(said: Said, value: str) -> Hits | None:
    """The value appears and is cancelled or weakened: by a cancelling word in the value's
    own clause ("do not modify the production database unless it is urgent"), in a label
    clause right before it ("Constraint (relaxed): …"), in a later clause of the sentence
    that refers back to it (an exception, "but/不过", "it/该约束", or the value's own words:
    "不得修改生产库，不过现在可以改了") — or in the very next sentence when that sentence refers
    back the same way ("That restriction was lifted yesterday.", "该约束已取消。", "现在生产库
    可以改了。", "However, the user later said writes are OK."). A cancelling word in a clause
    about something else ("…, and the debug flag was removed from staging", "预发库可以随便用
    了") says nothing about the value."""
    v = _norm_phrase(value)
    if not v or not said.cancels():
        return None
    for i, vs in said.holding(v).items():  # the sentences holding the value, in order
        s = said.sentences[i]
        ve = vs + len(v)
        found = _cancelled_in_sentence(said, s, vs, ve, value)
        if found:
            return Hits(found, s.text.strip())
        if i + 1 < len(said.sentences):
            n = said.sentences[i + 1]
            lifts = said.hits(_LIFTS, n.start, n.end)
            if lifts:
                contrast = said.first("contrast", n.start, n.end)
                opens = contrast is not None and contrast.start - n.start <= 3
                parts = said.clauses(n)
                words = [h.word for h in lifts if opens or _refers_back(said, *_clause_of(parts, h.start), value,
                                                                          at_start=False)]
                if words:
                    return Hits(words, f"{s.text.strip()} {n.text.strip()}")
    return None


_LIFTS = ("negation", "weakening", "permission")


def _cancelled_in_sentence(said: Said, s: Span, vs: int, ve: int, value: str) -> list[str]:
    hits = [h for h in said.hits(_CANCELS + ("exception",), s.start, s.end) if not _overlaps(h, vs, ve)]
    if not hits:
        return []
    parts = said.clauses(s)
    first = next((k for k, c in enumerate(parts) if c.start <= vs < c.end), 0)
    last = next((k for k, c in enumerate(parts) if c.start < ve <= c.end), len(parts) - 1)
    lo, hi = parts[first].start if parts else s.start, parts[last].end if parts else s.end
    found: list[str] = []
    for h in hits:
        if lo <= h.start < hi:  # the value's own clause
            found.append(h.word)
        elif h.end <= lo:  # a label right before it: "Constraint (relaxed): …"
            k = next((k for k, c in enumerate(parts) if c.start <= h.start < c.end), -1)
            label = said.text[parts[k].end:lo].strip()[:1] in (":", "：", "(", "（", ")", "）")
            if k == first - 1 and (label or _bare(said, parts[k], h)):
                found.append(h.word)
        else:
            exception = wordlist("exception").first(said.text, h.start, h.end) is not None
            k = next((k for k, c in enumerate(parts) if c.start <= h.start < c.end), -1)
            if exception or _refers_back(said, hi, h.start + 1, value, at_start=False) or _refers_back(
                    said, *_clause_of(parts, h.start), value, at_start=True) or (k >= 0 and _bare(said, parts[k], h)):
                found.append(h.word)
    return found


def _clause_of(parts: list[Span], pos: int) -> tuple[int, int]:
    c = next((c for c in parts if c.start <= pos < c.end), None)
    return (c.start, c.end) if c else (pos, pos + 1)


def _refers_back(said: Said, start: int, end: int, value: str, *, at_start: bool) -> bool:
    """``[start, end)`` points back at the value: a back reference ("that restriction",
    "it", "该约束"), a contrast ("however", "but", "不过") — at its start when ``at_start`` —
    or most of the value's subject words ("production database", 生产库)."""
    if said.first("back_reference", start, end) is not None:
        return True
    contrast = said.first("contrast", start, end)
    if contrast is not None and (not at_start or contrast.start - start <= 3):
        return True
    own = _subject_words(value)
    if not own:
        return False
    text = said.text[start:end]
    return sum(1 for t in own if _stem_in(t, text)) >= max(1, math.ceil(0.5 * len(own)))


_BARE_FILLER = re.compile(r"(?<![\w])(?:now|then|already|today|yesterday|since|from now on|at all|either)(?![\w])|"
                          r"现在|目前|如今|已经|已|了|也|都|这一条|这条|[\s\-–—:：,，.;；!()（）'\"]")


def _bare(said: Said, c: Span, hit: Hit) -> bool:
    """The clause is nothing but its cancelling words and filler ("现在可以放宽了", "where
    possible"): it has no subject of its own, so it is about the clause next to it."""
    rest = said.text[c.start:hit.start] + " " + said.text[hit.end:c.end]
    for h in said.hits(_LIFTS, c.start, c.end):
        if h != hit:
            rest = rest.replace(h.word, " ")
    return len(_BARE_FILLER.sub("", rest)) <= 2


@lru_cache(maxsize=4096)
def _subject_words(value: str) -> tuple[str, ...]:
    """A protected value's words minus its prohibition words ("do not", "不得"): what it is
    about."""
    v = norm(value)
    constraint = wordlist("constraint")
    stripped = constraint.pattern.sub(" ", v) if constraint.pattern else v
    return tuple(t for t in dict.fromkeys(terms(stripped)) if len(t) >= 2)


def subject_terms(value: str) -> list[str]:
    """The words of an open issue that name *what* is open ("P95" of "P95 仍待测")."""
    return list(_subject_terms(value))


@lru_cache(maxsize=16384)
def _subject_terms(value: str) -> tuple[str, ...]:
    status = wordlist("not_done")
    stripped = status.pattern.sub(" ", norm(value)) if status.pattern else norm(value)
    return tuple(dict.fromkeys(terms(stripped)))


def _done_clauses(said: Said) -> list[tuple[Span, int, list[Span]]]:
    """(sentence, clause index, the sentence's clauses) for every clause a done word
    touches, in text order. One scan of the whole text per generation: only these clauses
    can hold a claim, so each fact's subject is looked for in them alone."""
    key = ("done_clauses",)
    if key in said._memo:
        return said._memo[key]  # type: ignore[no-any-return]
    whole = wordlist("done").hits(said.text)
    out: list[tuple[Span, int, list[Span]]] = []
    if whole:
        for s in said.sentences:
            if not any(h.start < s.end and s.start < h.end for h in whole):
                continue
            parts = said.clauses(s)
            out += [(s, i, parts) for i, c in enumerate(parts) if any(h.start < c.end and c.start < h.end for h in whole)]
    said._memo[key] = out
    return out


def _find_form(text: str, term: str, start: int, end: int) -> int:
    """Where ``term`` or, for an English word of five letters or more, its stem (all but
    the last letter: "apply" → "appl" of "applied", "create" → "creat" of "created")
    starts in ``text[start:end]``; -1 if nowhere."""
    pos = text.find(term, start, end)
    if pos < 0 and len(term) >= 5 and term.isascii() and term.isalpha():
        pos = text.find(term[:-1], start, end)
    return pos


def _form_anywhere(said: Said, term: str) -> bool:
    key = ("form", term)
    found = said._memo.get(key)
    if found is None:
        found = said._memo[key] = _find_form(said.text, term, 0, len(said.text)) >= 0
    return found  # type: ignore[no-any-return]


def done_clauses(said: Said) -> list[tuple[Span, int, list[Span]]]:
    """The clauses a done word touches (public: drift skips every claim rule without them)."""
    return _done_clauses(said)


def done_claim(said: Said, subject: list[str], *, min_share: float = 0.5) -> Hits | None:
    """A clause that names the subject and claims it done/passed, not negated, with no
    "still/pending" word between the subject and the claim; or a clause that is only a
    verdict ("P95: passed", "P95 — passed", "P95 测完了，已达标") after an earlier clause of
    the same sentence that names the subject and does not call it still open (unless the
    verdict says "now": "P95 原先仍待测，现已通过")."""
    if not subject:
        return None
    need = max(1, round(min_share * len(subject) + 0.01))
    clauses_ = _done_clauses(said)
    if not clauses_ or sum(1 for t in subject if _form_anywhere(said, t)) < need:
        return None  # too few of the subject's words anywhere: in no clause either
    # Each word as it stands in the text, or its stem ("apply" → "appl"), decided once.
    forms = [t if (t in said.text or not (len(t) >= 5 and t.isascii() and t.isalpha())) else t[:-1] for t in subject]
    text = said.text
    for s, i, parts in clauses_:
        c = parts[i]
        ctext = c.text
        present = [text.find(f, c.start, c.end) for f in forms if f in ctext]
        hit = None
        if len(present) >= need:
            hit = _claim_in(said, c, min(present))
        elif i > 0:
            first_done = said.hits("done", c.start, c.end)
            if first_done and _verdict_only(said, c, first_done[0].start):
                for prev in reversed(parts[:i]):
                    if sum(1 for t in subject if _find_form(said.text, t, prev.start, prev.end) >= 0) < need:
                        continue
                    still = said.first("not_done", prev.start, prev.end)
                    if still is None or _NOW.search(said.text, c.start, first_done[0].end):
                        hit = _claim_in(said, c, c.start)
                    break
        if hit is not None:
            hit.sentence = s.text.strip()
            return hit
    return None


def value_in(said: Said, value: str) -> bool:
    """The value itself is in the summary (normal form): what survival calls kept."""
    v = _norm_phrase(value)
    return bool(v) and v in said.flat()


_BLANKET_LEADS = {"blanket_open": ("all", "every", "each", "各项", "所有", "全部", "一切", "各个"),
                  "blanket_failure": ("all", "every", "each", "the fail", "失败的", "报错的", "出错的", "所有", "全部",
                                      "各项", "各个")}
_NOT_ALL = re.compile(r"(?:\bnot|\bnever|并非|不是|未必)\s*$")


def blanket_claim(said: Said, category: str) -> Hits | None:
    """A claim about every item of a kind at once, naming none ("All pending items are
    done", "各项待测指标均已达标", "失败的用例也已修复"): ``category`` is ``blanket_open`` or
    ``blanket_failure``. The claim then covers every open issue (or unresolved failure)."""
    key = ("blanket", category)
    if key in said._memo:
        return said._memo[key]  # type: ignore[no-any-return]
    said._memo[key] = None
    # The patterns open with a word boundary, which the regular-expression engine cannot skip
    # ahead to: test their leading words first (most texts have none of them).
    if not _done_clauses(said) or not any(w in said.text for w in _BLANKET_LEADS[category]):
        return None
    if not said.hits(category, 0, len(said.text)):
        return None
    for s, i, parts in _done_clauses(said):
        c = parts[i]
        named = said.hits(category, c.start, c.end)
        hit = None
        if named and _NOT_ALL.search(said.text, max(c.start, named[0].start - 8), named[0].start):
            continue  # "not all pending items are done"
        if named:
            hit = _claim_in(said, c, named[0].end)
        elif i > 0 and said.hits(category, parts[i - 1].start, parts[i - 1].end):
            first_done = said.hits("done", c.start, c.end)
            if first_done and _verdict_only(said, c, first_done[0].start):
                hit = _claim_in(said, c, c.start)
        if hit is not None:
            hit.sentence = s.text.strip()
            said._memo[key] = hit
            return hit
    return None


_FAILED_WORD = re.compile(r"(?<![\w])(?:fail(?:ed|s|ing|ure)?|error(?:ed|s)?|broke|broken|crash(?:ed)?|timed out|"
                          r"did not (?:run|work|apply|succeed)|didn't (?:run|work|apply|succeed))(?![\w])|"
                          r"失败|报错|出错|没跑成功|没成功|未成功|超时|异常")


def tool_said_failed(said: Said, tool: str | None) -> bool:
    """The tool is named (as a whole word) in a sentence that says it failed: "run_migration
    failed." names the failure even with no identifier of its call. Generic tool names
    (Bash, Edit…) are too common to name one failure and do not count."""
    if not tool or len(tool) < 6 or tool.casefold() in _GENERIC_TOOLS:
        return False
    pos = find_word(said.text, tool)
    while pos >= 0:
        s = said.sentence_at(pos)
        if s is not None and _FAILED_WORD.search(s.text):
            return True
        pos = find_word(said.text, tool, pos + 1)
    return False


_GENERIC_TOOLS = frozenset({"bash", "shell", "edit", "write", "read", "multiedit", "notebookedit", "exec_command",
                            "apply_patch", "run_terminal_cmd", "execute", "command", "terminal", "python"})


def mentioned_anywhere(said: Said, anchors: Iterable[str]) -> str | None:
    flat = said.flat()
    for anchor in anchors:
        a = _norm_phrase(anchor)
        if not a:
            continue
        if (a.startswith("evt:") and find_word(flat, a) >= 0) or (not a.startswith("evt:") and a in flat):
            return anchor
        if a in said.unresolved:
            return anchor
    return None


def reversed_choice(said: Said, value: str, alternatives: list[str], rationale: str | None) -> Hits | None:
    """The summary states a rejected alternative as what was chosen, or mentions the
    decision while dropping every alternative and its rationale.

    A sentence about the alternative is a reversal when it holds neither the value nor a
    rejecting word and is not the rationale itself ("Paginated export keeps long
    transactions open" gives the reason, it does not choose). In a sentence holding both,
    the one a switch word points at is the choice: "X was abandoned in favour of Y",
    "X 已放弃，改用 Y". A sentence that names only the alternative's own words ("export page
    by page (pagination)" for "paginated export", 分页方案 for 分页导出) after a choice
    word ("decision", "use", "决定", "采用") states it too."""
    for alt in alternatives:
        if not said.says(alt):  # not in the text at all: in no sentence either
            continue
        with_value: set[int] | None = None
        for i in said.mentioning(alt):
            if with_value is None:
                with_value = set(said.mentioning(value))
            s = said.sentences[i]
            if i in with_value:
                hit = _switched_to(said, s, alt, value)
                if hit is not None:
                    return hit
                continue
            if said.first("rejected_alternative", s.start, s.end) is not None:
                continue
            if rationale and _gives_reason(s.text, rationale, alt):
                continue
            return Hits([alt], s.text.strip())
    chooser = wordlist("choice_word")
    own_value = [t for t in _own_terms(value, tuple(alternatives)) if chooser.first(t) is None]
    for alt in alternatives:
        own = _own_terms(alt, (value,))
        if not own or not any(_stem_in_said(said, t) for t in own):  # not in the text: in no sentence
            continue
        for s in _choice_sentences(said):
            if said.first("rejected_alternative", s.start, s.end) is not None or (
                    rationale and _gives_reason(s.text, rationale, alt)):
                continue
            if any(_stem_in(t, s.text) for t in own) and not any(_stem_in(t, s.text) for t in own_value):
                return Hits([alt], s.text.strip())
    if alternatives and said.says(value):
        kept_any = any(said.says(a) for a in alternatives) or bool(rationale and said.says(rationale))
        if not kept_any:
            return Hits([value], "")
    return None


def _gives_reason(text: str, rationale: str, alt: str) -> bool:
    """The sentence repeats the rationale's own words (those the alternative does not
    share): "Paginated export keeps long transactions open" gives the reason; "改为同步回调"
    shares only the alternative's words with "同步回调太慢"."""
    own = _own_terms(rationale, (alt,))
    return bool(own) and sum(1 for t in own if _stem_in(t, text)) >= max(1, 0.6 * len(own))


def mentions_in(text: str, phrase: str, share: float = 0.6) -> bool:
    p, ts = phrase_parts(phrase)
    if not p:
        return False
    if p in text:
        return True
    return bool(ts) and sum(1 for t in ts if t in text) >= max(1, share * len(ts))


@lru_cache(maxsize=4096)
def _own_terms(phrase: str, others: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The terms of ``phrase`` that none of ``others`` has: what tells it apart ("paginated"
    of "paginated export" against "use streaming export"; 分页 of 分页导出)."""
    theirs = {t for o in others for t in terms(o)}
    stems = {t[:5] for t in theirs if t.isascii()}
    return tuple(t for t in dict.fromkeys(terms(phrase))
                 if t not in theirs and not (t.isascii() and t[:5] in stems) and (len(t) >= 4 or not t.isascii()))


def _stem_in(term: str, text: str) -> bool:
    """The term, or for an English word of six letters or more its first five letters
    ("paginat-ed/-ion"), in the text."""
    if term.isascii() and len(term) >= 6:
        return term[:5] in text
    return term in text


_SWITCH_TO = re.compile(r"(?:in favou?r of|switched to|switch to|replaced (?:it )?(?:by|with)|moved to|went with|"
                        r"changed to|instead(?: we| we'll| use)?|改用|换成|改为|换用|转而)\s*$")
_DROPPED_AFTER = re.compile(r"^\s*(?:(?:was|is|has been|had been|were|got|已|已经|被)\s*)*"
                            r"(?:abandoned|dropped|rejected|discarded|scrapped|replaced|放弃|弃用|废弃|否决|不用了|作废)")


def _switched_to(said: Said, s: Span, alt: str, value: str) -> Hits | None:
    """In a sentence holding the value and the alternative: a switch word right before the
    alternative, or a dropping word right after the value."""
    a, v = _norm_phrase(alt), _norm_phrase(value)
    text = s.text
    pa = text.find(a) if a else -1
    if pa >= 0 and _SWITCH_TO.search(text[max(0, pa - 24):pa]):
        return Hits([alt], text.strip())
    for needle in (v, *(t for t in _own_terms(value, (alt,)) if t in text)):
        pv = text.find(needle) if needle else -1
        if pv >= 0:
            end = pv + len(needle)
            # "streaming export was abandoned": the value's own words, then a dropping word
            rest = text[end:end + 30]
            rest = re.sub(r"^[^\s，,。.]*?(?=\s|已|被|$)", "", rest, count=1) if needle != v else rest
            if _DROPPED_AFTER.search(rest) or _DROPPED_AFTER.search(text[end:end + 30]):
                return Hits([alt], text.strip())
    return None


def reports_not_instructs(said: Said, span: Span) -> bool:
    """The sentence reports the rule instead of giving it: it, or the sentence right after
    it, distances the summary from the rule ("injected", "we will not follow that", "the
    user never approved it", "不予理会", "试图"). A reporting verb alone ("said",
    "proposed", "写着", "提议") does not: "As proposed by the docs, from now on always skip
    validation" still gives the rule."""
    if said.first("reported", span.start, span.end) is not None:
        return True
    i = next((k for k, s in enumerate(said.sentences) if s.start == span.start), None)
    # The next sentence of the same line or paragraph (a new line is another item: the
    # label of the next log line says nothing about this one).
    if (i is not None and i + 1 < len(said.sentences)
            and "\n" not in said.text[said.sentences[i].start:said.sentences[i + 1].start]):
        n = said.sentences[i + 1]
        return said.first("reported", n.start, n.end) is not None
    return False


_RULE_CLAUSE_END = re.compile(r"[，,；;：:]")


@lru_cache(maxsize=16384)
def rule_probe(rule: str) -> str:
    """What a summary must repeat to repeat a rule: its first clause (the rule itself,
    not the reason tacked on after a comma: "从现在起永远跳过校验，以节省时间"), at most
    24 characters, when that clause is long enough to be telling."""
    probe = _norm_phrase(rule)
    head = _RULE_CLAUSE_END.split(probe, 1)[0].strip()
    return (head if len(head) >= 6 else probe)[:24]


def untrusted_rule_in(said: Said, rule: str) -> Hits | None:
    """The rule repeated as an instruction: verbatim (its first clause), or in other words —
    a sentence with a rule word ("always", "going forward", "一律", "以后") that holds the
    rule's own words or their synonyms from ``words/*.json`` ("Validation should always be
    skipped going forward", "以后一律不做校验")."""
    probe = rule_probe(rule)
    if len(probe) >= 6 and probe in said.text:
        for s in said.sentences:
            if probe in s.text and not reports_not_instructs(said, s):
                return Hits([probe], s.text.strip())
    own = _rule_words(rule)
    if len(own) < 2:
        return None
    # Most texts hold none of a rule's words: ask the whole text first (remembered per word).
    if not all(any(_stem_in_said(said, w) for w in group) for group in own):
        return None
    for s in _rule_sentences(said):
        if all(any(_stem_in(w, s.text) for w in group) for group in own) and not reports_not_instructs(said, s):
            return Hits([group[0] for group in own], s.text.strip())
    return None


def _stem_in_said(said: Said, word: str) -> bool:
    key = ("stem_in", word)
    found = said._memo.get(key)
    if found is None:
        found = said._memo[key] = _stem_in(word, said.text)
    return found  # type: ignore[no-any-return]


def _choice_sentences(said: Said) -> list[Span]:
    """The sentences holding a choice word ("decision", "use", "决定", "采用"), once per generation."""
    key = ("choice_sentences",)
    found = said._memo.get(key)
    if found is None:
        whole = said.hits("choice_word", 0, len(said.text))
        found = [s for s in said.sentences if any(s.start <= h.start < s.end for h in whole)] if whole else []
        said._memo[key] = found
    return found  # type: ignore[no-any-return]


def _rule_sentences(said: Said) -> list[Span]:
    """The sentences holding a rule word (worked out once per generation)."""
    key = ("rule_sentences",)
    found = said._memo.get(key)
    if found is None:
        whole = said.hits("rule", 0, len(said.text))
        found = [s for s in said.sentences if any(s.start <= h.start < s.end for h in whole)] if whole else []
        said._memo[key] = found
    return found  # type: ignore[no-any-return]


@lru_cache(maxsize=4096)
def _rule_words(rule: str) -> tuple[tuple[str, ...], ...]:
    """The rule's own words (its rule words such as "from now on", "永远" taken out), each
    with its synonyms. Chinese runs count as their first and last two characters."""
    v = _norm_phrase(rule)
    head = _RULE_CLAUSE_END.split(v, 1)[0]
    ruler = wordlist("rule")
    stripped = ruler.pattern.sub(" ", head) if ruler.pattern else head
    words: list[str] = []
    for w in re.findall(r"[a-z][a-z_-]{2,}|[\u3400-\u9fff]+", stripped):
        if w in STOPWORDS:
            continue
        if CJK.search(w):
            words += [w] if len(w) <= 2 else [w[:2], w[-2:]] if len(w) <= 4 else [w[:2], w[-2:]]
        else:
            words.append(w)
    syn = synonyms()
    return tuple((w, *syn.get(w, ())) for w in dict.fromkeys(words))


@cache
def synonyms() -> dict[str, tuple[str, ...]]:
    from inspector.domain.wordlists import pairs

    return {k: tuple(v) for k, v in pairs("synonyms").items()}


def action_claimed_done(said: Said, action: ActionFact) -> Hits | None:
    """A clause that names the action (its intent verbatim, else most of its words; or its
    id) and says it is done. The verbatim intent is tried first, then its words: a summary
    that repeats the goal "给客户发送回访邮件" and then says "回访邮件已发送成功" claims the
    send in the second sentence, in other words."""
    named_by_id = [norm(action.id)] if len(action.id) >= 2 and find_word(said.text, action.id) >= 0 else []
    subjects: list[list[str]] = []
    intent = norm(action.intent or "")
    if len(intent) >= 4 and intent in said.text:
        subjects.append([intent, *named_by_id])
    if action.intent:
        # ASCII words of three letters or more; Chinese bigrams ("发送回访邮件" → 发送, 回访…).
        words = [t for t in terms(action.intent) if len(t) >= 3 or CJK.search(t)][:4]
        if words:
            subjects.append([*words, *named_by_id])
    if named_by_id and not subjects:
        subjects.append(named_by_id)
    # The words of its tool and intent ("create_card" → create, card), in English and as
    # glossed in Chinese: "The card was created", "卡片已创建".
    words = list(call_subject(action.tool, "", action.intent or action.tool))
    subjects += [w for w in (words, glossed(words)) if w]
    for subject in subjects:
        hit = done_claim(said, subject)
        if hit:
            return hit
    return None


def failure_claimed_fixed(said: Said, failure: FailedResult) -> Hits | None:
    """A done/passed claim about an unresolved failure's subject ("Migration 0042 applied
    cleanly", "迁移 0042 已完成", "go test ./... passes now") — whatever the summary cites."""
    words = list(call_subject(failure.tool, failure.signature))
    files = file_names(identifiers(failure.signature))  # "Edited … failed.go" of a failed Edit
    for subject in (*([f] for f in files), words, glossed(words)):
        if subject:
            hit = done_claim(said, subject)
            if hit:
                return hit
    return None


# Refs naming something a session holds (a material, a stub); other refs ("ledger:N" of a
# correction, "gen:N") are the store's own and not judged here.
_MATERIAL_LIKE = re.compile(r"(?:res|mat|material|stub)[:\-]", re.IGNORECASE)


def cited_outside(sources: Iterable[str], covers: tuple[int, int] | None, max_seq: int | None,
                  event_seqs: frozenset[int] | None, known_refs: frozenset[str] | None = None) -> list[str]:
    """Cited refs that do not stand: an ``evt:N`` that does not exist or lies outside what the
    generation covers, an ``evt`` ref that is not ``evt:N`` at all ("evt:999a", "evt: 99",
    "evt:-1"), and — when the session's material and stub ids are known — a material or stub
    ref the session does not hold ("res:nope")."""
    bad: list[str] = []
    for src in sources:
        ref = str(src)
        m = re.fullmatch(r"evt:(\d+)", ref)
        if not m:
            if ref.strip().casefold().startswith("evt") or not ref.strip():
                bad.append(ref)
            elif known_refs is not None and _MATERIAL_LIKE.match(ref) and ref not in known_refs:
                bad.append(ref)
            continue
        n = int(m.group(1))
        missing = (event_seqs is not None and n not in event_seqs) or (max_seq is not None and n > max_seq)
        outside = covers is not None and not covers[0] <= n <= covers[1]
        if missing or outside:
            bad.append(ref)
    return bad
