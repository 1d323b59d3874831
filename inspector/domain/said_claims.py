"""Done claims: a summary saying an open item, an action or a failure is done, passed or fixed.

Open issues (``open_issue_claimed_done``), actions of unknown outcome (``unknown_claimed``)
and survival's ``contradicted`` all ask one question — does a clause name the subject and
claim it done, without a negation, a hedge, an aim or a "still/pending" between them? —
so the answer lives in one place. Only clauses a done word touches can hold a claim: they
are found once per generation (``done_clauses``) and each subject is looked for in them alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from inspector.domain.drift_context import ActionFact
from inspector.domain.said import Hits, Said, overlaps
from inspector.domain.subjects import call_subject, glossed
from inspector.domain.textnorm import CJK, Span, find_word, norm, terms
from inspector.domain.wordlists import Hit, wordlist

NEGATION_REACH = 14  # characters before a done word in which "not"/"未" cancels the claim


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
    # Every open issue, failure and action asks about the same few claim clauses, often from
    # the same subject position ("P95 of endpoint 3" and "… 43" both start at "p95"): the
    # answer depends on the clause and that position alone, so it is worked out once.
    key = ("claim_in", c.start, c.end, subject_pos)
    memo = said._memo
    if key not in memo:
        found = _claim_word(said, c, subject_pos)
        memo[key] = found
    else:
        found = memo[key]
    return Hits([found]) if found is not None else None


def _claim_word(said: Said, c: Span, subject_pos: int) -> str | None:
    if said.first("uncertain", c.start, c.end) is not None:
        return None
    sent = said.sentence_at(c.start)
    if sent is not None and said.stripped(sent)[-1:] in ("?", "？"):  # a question claims nothing
        return None
    for h in said.hits("done", c.start, c.end):
        # An aim, not a claim: "目标：让导出测试通过", "goal: make the tests pass".
        label = said.text[max(sent.start if sent else 0, c.start - 12):c.start]
        if said.first("aim", c.start, h.start) is not None or wordlist("aim").first(label) is not None:
            continue
        if h.word in _AFTER_ONLY and h.start < subject_pos:
            continue  # "we pass the tests flag to make" is another verb; "the tests pass" is a verdict
        floor = subject_pos if c.start <= subject_pos < h.start else c.start
        if _negated_before(said.text, h.start, floor):
            continue
        if h.end <= subject_pos and (said.first("exception", h.end, subject_pos) is not None
                                     or _APART.search(said.text, h.end, subject_pos)):
            continue  # "done except the P95 measurement": the subject is what is left out
        lo, hi = sorted((subject_pos, h.start))
        pending = [b for b in said.hits("not_done", lo, hi) if not overlaps(b, h.start, h.end)]
        if pending and not (subject_pos < h.start and _NOW.search(said.text, pending[-1].end, h.end)):
            continue
        return h.word
    return None


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
    whole = said.hits("done", 0, len(said.text))  # the same scan every span query of "done" reads
    out: list[tuple[Span, int, list[Span]]] = []
    if whole:
        spans = said.sentences
        touched: dict[int, list[Hit]] = {}  # sentence index → the done words overlapping it
        for h in whole:
            i = max(0, said.sentence_index(h.start))
            while i < len(spans) and spans[i].start < h.end:
                if h.start < spans[i].end:
                    touched.setdefault(i, []).append(h)
                i += 1
        for i in sorted(touched):
            s, near = spans[i], touched[i]
            parts = said.clauses(s)
            out += [(s, k, parts) for k, c in enumerate(parts) if any(h.start < c.end and c.start < h.end for h in near)]
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


# Above this many (claim clause, subject word) pairs, done_claim first asks the whole text.
_CLAUSE_WORK = 64


def done_clauses(said: Said) -> list[tuple[Span, int, list[Span]]]:
    """The clauses a done word touches (public: drift skips every claim rule without them)."""
    return _done_clauses(said)


def _outside_path(text: str, term: str, start: int, end: int) -> int:
    """The first occurrence of ``term`` in ``text[start:end]`` that is not a part of a path
    ("export" in "/repo/export/stream.go" names a folder, not the failed ``go test
    ./export/...``); a term that is itself a path or file name is found anywhere. -1: none."""
    pos = text.find(term, start, end)
    if "/" in term or "." in term:
        return pos
    while pos >= 0:
        lo = max(text.rfind(" ", start, pos), text.rfind("\n", start, pos)) + 1
        hi_space = [i for i in (text.find(" ", pos, end), text.find("\n", pos, end)) if i >= 0]
        token = text[max(lo, start):min(hi_space) if hi_space else end]
        if "/" not in token:
            return pos
        pos = text.find(term, pos + 1, end)
    return -1


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
    if not clauses_:
        return None
    # Too few of the subject's words anywhere: in no clause either. Asking the whole text is
    # a search per word; with few claim clauses, asking them alone is cheaper and finds the same.
    if len(clauses_) * len(subject) > _CLAUSE_WORK and sum(1 for t in subject if _form_anywhere(said, t)) < need:
        return None
    # Each word with its stem ("apply" → "appl"), which counts where the text nowhere holds the word.
    stems = [(t, t[:-1] if len(t) >= 5 and t.isascii() and t.isalpha() else None) for t in subject]
    text = said.text
    for s, i, parts in clauses_:
        c = parts[i]
        ctext = c.text
        present = []
        for t, stem in stems:
            if t in ctext:
                pos = _outside_path(text, t, c.start, c.end)
                if pos >= 0:
                    present.append(pos)
            elif stem is not None and stem in ctext and not said.in_text(t):
                pos = _outside_path(text, stem, c.start, c.end)
                if pos >= 0:
                    present.append(pos)
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
            hit.sentence = said.stripped(s)
            return hit
    return None


_BLANKET_LEADS = {"blanket_open": ("all", "every", "each", "the task", "the whole", "the entire", "the work", "the job",
                                   "各项", "所有", "全部", "一切", "各个", "任务", "工作"),
                  "blanket_failure": ("all", "every", "each", "the fail", "失败的", "报错的", "出错的", "所有", "全部",
                                      "各项", "各个")}
# Done words that are a verdict only after their subject ("the tests pass", "it works").
_AFTER_ONLY = frozenset({"pass", "works", "work now", "in place", "landed", "shipped", "all pass"})
_NOT_ALL = re.compile(r"(?:\bnot|\bnever|并非|不是|未必)\s*$")
_APART = re.compile(r"\b(?:apart from|other than|besides|but not|else)\b|除了|除外|之外")


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
        if said.first("exception", s.start, s.end) is not None or _APART.search(s.text):
            continue  # "everything is done except P95": the exception is what stays open
        if named:
            hit = _claim_in(said, c, named[0].end)
        elif i > 0 and said.hits(category, parts[i - 1].start, parts[i - 1].end):
            first_done = said.hits("done", c.start, c.end)
            if first_done and _verdict_only(said, c, first_done[0].start):
                hit = _claim_in(said, c, c.start)
        if hit is not None:
            hit.sentence = said.stripped(s)
            said._memo[key] = hit
            return hit
    return None


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
