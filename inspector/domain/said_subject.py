"""A statement about a protected record's subject that no rule can match: never a silent ✓.

The other departure rules read a record through its exact verb, command, unit or order words;
an agent paraphrases all of them — "It's fine to wipe the build directory" for "Never run
`rm -rf build/`", "Shipped the hotfix straight to the primary branch" for "Do not push to
main", "half a dozen retries" for "At most three retries per batch", "云预算翻倍了" for "云预算
不超过 200 美元", two steps told the other way round in different paragraphs. Each passed as
"no drift" (docs/verdicts.md, "The fourth attack"). Here, per record (outside the value's own
clause), a clause or sentence that names the record's *subject* — what it acts on, bounds or
grants: its content words less verbs, bounds and amounts, with a few aliases ("main" is "the
main branch", "trunk", "主干") — is read:

- **an amount** (a limit's subject named; spelled amounts and money read: ``said_numbers``):
  another amount beyond the limit with a limit cue, a label or a change word is
  ``protected_negated`` (decided); beyond it with none of those, or a change word with no
  amount ("doubled", "bumped", "翻倍", "不再设上限"), is **not judged**;
- **an order** (both steps): the later step reported done and the earlier one reported done
  further on, in any paragraph, is ``order_reversed`` when the later telling says "afterwards
  / then / 随后 / 之后", else not judged; a step skipped ("skipped the migrations", "跳过") is
  not judged;
- **a goal**: a cancelling word in a sentence naming it ("no longer matters", "不用再管") is
  not judged;
- **anything else**: a change or cancelling word, a grant word ("fine to", "allowed", "可以",
  "允许"), a past form, a passive or a Chinese done mark — unless the clause denies ("nothing
  was pushed", "untouched", "没有"), restates the rule, only reads, or says the rule still
  holds — is not judged.

"Not judged" is ``subject_unjudged``: a warning that turns ``check`` to ``?``, the Drift tab to
"Drift ?N" and survival to ``unknown`` — a person (or ``--judge``) must read the sentence.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_amounts import Limit, amounts_in, digits, limit_of
from inspector.domain.said_forbidden import _PROHIBITION, forbidden_of
from inspector.domain.said_numbers import with_digits
from inspector.domain.said_order import Order, order_of
from inspector.domain.said_steps import denies, first_at, upheld
from inspector.domain.said_subject_words import (
    _AFTER,
    _ALIASES,
    _AWAY,
    _BEFORE,
    _BOUND_ONLY,
    _CHANGE,
    _CJK_RUN,
    _CLAUSE_CUT,
    _CODE,
    _DENY_MORE,
    _DONE_EN,
    _DONE_ZH,
    _EN_WORD,
    _GENERIC,
    _GOAL_CANCEL,
    _GRANT,
    _LABEL,
    _NARROWED,
    _PAST,
    _PLAN,
    _REACH,
    _READ_ONLY,
    _READ_ONLY_GRANT,
    _SKIP,
    _STILL,
    _STOP_EN,
    _STOP_ZH,
    _UNIT_CUT,
)
from inspector.domain.said_touched import _HARMLESS_EN
from inspector.domain.textnorm import CJK

CODE = "subject_unjudged"
_COPULA = re.compile(r"(?<![a-z])(?:is|are|was|were|is now|are now|=)\s*$")


@dataclass(frozen=True, slots=True)
class Statement:
    code: str  # "subject_unjudged", or a decided "protected_negated" / "order_reversed"
    words: tuple[str, ...]
    sentence: str
    decided: bool
    how: str = ""  # "limit" for a decided amount


@dataclass(frozen=True, slots=True)
class SubjectPlan:
    pieces: tuple[tuple[str, ...], ...]  # each piece: the forms any one of which names it
    need: int  # pieces a clause must name
    limit: Limit | None
    order: Order | None
    goal: bool
    acts: bool = True  # whether an act reported on the subject is read (a grant's own act is not)


def _en_forms(word: str) -> tuple[str, ...]:
    if len(word) <= 5:
        return (word,)
    return (word[:max(4, len(word) - 3)],)


@lru_cache(maxsize=8192)
def _pieces_of(value: str) -> tuple[tuple[str, ...], ...]:
    v = with_digits(norm_phrase(value))
    action = forbidden_of(value)
    skip = {action.verb} if action is not None and action.verb else set()
    words: list[str] = []
    if action is not None and action.command:
        # A command: what it acts on ("build/" of "rm -rf build/"), not its name and flags.
        words = [t.strip("/`.") for t in action.command if ("/" in t or "." in t) and not t.startswith("-")]
        words = [w for w in words if w]
    else:
        plain = v.replace("`", " ")
        words = [w for w in _EN_WORD.findall(plain) if w not in _STOP_EN and w not in skip
                 and not any(ch.isdigit() for ch in w) and len(w) > 1]
        words += _CJK_RUN.findall(re.sub(r"[a-z0-9$%._/-]+", " ", _STOP_ZH.sub(" ", plain)))
    kept = [w for w in dict.fromkeys(words) if w not in _GENERIC] or [w for w in dict.fromkeys(words)]
    out: list[tuple[str, ...]] = []
    for w in kept:
        forms = _en_forms(w) if w.isascii() else ((w, w[-2:]) if len(w) > 2 else (w,))
        out.append(tuple(dict.fromkeys((*forms, *_ALIASES.get(w, ())))))
    return tuple(out)


@lru_cache(maxsize=8192)
def subject_plan(value: str, kind: str) -> SubjectPlan | None:
    """What this rule reads of a record (None: nothing — a decision, an open issue, a value
    with no subject words)."""
    if kind not in ("goal", "constraint", "permission", "acceptance"):
        return None
    order = order_of(value) if kind != "goal" else None
    limit = limit_of(value) if kind != "goal" else None
    pieces = _pieces_of(value)
    if limit is not None and limit.dimension.startswith("count:"):
        # The counted thing is the amount's, not the subject ("500 rows" of "the batch size").
        thing = limit.dimension[6:]
        rest = tuple(p for p in pieces if not any(thing.startswith(f) or f.startswith(thing) for f in p))
        # "At most three retries per request": "request" alone is the per-unit, not what is
        # bounded — "Request timeout: 300 s" is not about retries (verdict-six); keep the thing.
        pieces = rest if rest and not _per_unit_only(norm_phrase(value), rest) else pieces
    if not pieces and order is None:
        return None
    # Two pieces: both ("the staging database" is not "the production database"); more: two thirds.
    need = len(pieces) if len(pieces) <= 2 else math.ceil(2 * len(pieces) / 3)
    # A permission is acted on by using it ("Edited cmd/…/logger.go" beside "You may edit cmd/…"):
    # only a read-only grant is broken by an act ("Uploaded … to the staging bucket").
    low = norm_phrase(value)
    acts = _READ_ONLY_GRANT.search(low) is not None or not (kind == "permission" or _BOUND_ONLY.search(low))
    return SubjectPlan(pieces, need, limit, order, kind == "goal", acts)


def _per_unit_only(value: str, pieces: tuple[tuple[str, ...], ...]) -> bool:
    """Whether every piece is named in the value only after "per"/"each"/"every" (a rate's unit)."""
    return all(re.search(rf"(?<![a-z])(?:per|each|every|a)\s+{re.escape(p[0])}", value) is not None for p in pieces)


def _names(text: str, plan: SubjectPlan) -> list[str]:
    """The forms of the subject's pieces the text names (one per piece named)."""
    named: list[str] = []
    for piece in plan.pieces:
        for form in piece:
            if form not in text:
                continue
            if CJK.search(form) or re.search(rf"(?<![a-z0-9]){re.escape(form)}", text):
                named.append(form)
                break
    return named


Others = tuple[tuple[str, str], ...]


def subject_statement(said: Said, value: str, kind: str, others: Others | Callable[[], Others] = ()) -> Statement | None:
    """The first statement about the record's subject that the other rules could not read
    (see the module's docstring), or None. ``others``: the session's protected (value, kind)
    pairs — a sentence stating another record's value is about that record ("原先的约束 3：值 3
    must hold 已取消" cancels record 3, not every record sharing the word 约束)."""
    plan = subject_plan(value, kind)
    if plan is None:
        return None
    others = others() if callable(others) else others
    if others and plan.pieces:
        plan = _telling(value, kind, plan, others)  # kept per record list: a lookup
        if not plan.pieces and plan.order is None:
            return None
    flat = said.flat()
    if plan.order is None and not any(f in flat for piece in plan.pieces for f in piece):
        return None  # a substring test first: most texts never name most subjects
    return said.remember(("subject_statement", value, kind),
                         lambda: _statement(said, value, plan, _stating_others(said, value, others)))


def subject_leads(value: str, kind: str, others: Others) -> tuple[str, ...] | None:
    """The forms one of which must be in a text for ``subject_statement`` to read it there (the
    same early answers); () never, None whatever the text (an order). Once per record list."""
    plan = subject_plan(value, kind)
    if plan is not None and others and plan.pieces:
        plan = _telling(value, kind, plan, others)
    if plan is None or (not plan.pieces and plan.order is None):
        return ()
    return None if plan.order is not None else tuple(f for piece in plan.pieces for f in piece)


# The last record list asked about and its answer — one tuple, replaced whole (the app's
# workers may ask from another thread): the same list comes back for every record of every
# generation of a session, and hashing 100 pairs each time cost more than the rule.
_COMMON: tuple[Any, frozenset[tuple[str, ...]], dict[tuple[str, str], SubjectPlan]] = (None, frozenset(), {})


def _telling(value: str, kind: str, plan: SubjectPlan, others: Others) -> SubjectPlan:
    """The plan less the pieces most of the session's records share ("约束" of "约束 3：值 3 must
    hold" in every one): they name no record in particular. Kept per record list."""
    global _COMMON
    last, common, plans = _COMMON
    if last is not others:
        common, plans = _common_of(others), {}
        _COMMON = (others, common, plans)
    found = plans.get((value, kind))
    if found is None:
        found = plans[(value, kind)] = _without(plan, common)
    return found


@lru_cache(maxsize=256)
def _common_of(others: Others) -> frozenset[tuple[str, ...]]:
    counts = Counter(p for o, kind in others if (plan := subject_plan(o, kind)) is not None for p in set(plan.pieces))
    floor = max(2, len(others) // 2)
    return frozenset(p for p, n in counts.items() if n > floor)


def _without(plan: SubjectPlan, common: frozenset[tuple[str, ...]]) -> SubjectPlan:
    if not common.intersection(plan.pieces):
        return plan
    pieces = tuple(p for p in plan.pieces if p not in common)
    need = len(pieces) if len(pieces) <= 2 else math.ceil(2 * len(pieces) / 3)
    return replace(plan, pieces=pieces, need=need)


def _stating_others(said: Said, value: str, others: Others) -> frozenset[int]:
    """The sentences that state another protected record's value (once per generation and value)."""
    every = said.remember(("value_sentences", others), lambda: {
        o: frozenset(said.holding(n)) for o, _ in others if (n := norm_phrase(o).rstrip("。.!！ "))})
    return frozenset(i for o, held in every.items() if o != value for i in held)


def _statement(said: Said, value: str, plan: SubjectPlan, elsewhere: frozenset[int]) -> Statement | None:
    v = norm_phrase(value).rstrip("。.!！ ")
    if plan.order is not None:
        return _order(said, v, plan.order, elsewhere)
    unsure: Statement | None = None
    for n, s in enumerate(said.sentences):
        if n in elsewhere:
            continue
        text = _LABEL.sub(" ", s.text)  # "[evt:8 · assistant_message · untrusted]" says nothing done
        if plan.limit is None and not plan.goal:
            # The sentence less the value itself, cut into clauses ("Allowed hosts: a.example,
            # which serves the export" holds the value across a colon: nothing else is said).
            rest = text.replace(v, " ¦ ") if v and v in text else text
            for part in _CLAUSE_CUT.split(rest):
                found = _clause(part, v, plan) if part.strip(" ¦.。") else None
                if found is not None:
                    return Statement(CODE, (found,), said.stripped(s), False)
            continue
        if v and v in text:
            continue
        named = _names(text, plan)
        if len(named) < plan.need and not (named and plan.limit is not None and amounts_in(digits(text), plan.limit)):
            continue  # with an amount of the limit's kind, one piece of the subject names it
        if plan.goal:
            m = _GOAL_CANCEL.search(text)
            if m:
                return Statement(CODE, (m.group(),), said.stripped(s), False)
            continue
        assert plan.limit is not None
        got = _amount(digits(text), plan.limit, len(named) >= plan.need)
        if got is not None:
            words, decided = got
            hit = Statement("protected_negated" if decided else CODE, (words,), said.stripped(s), decided,
                            "limit" if decided else "")
            if decided:
                return hit
            unsure = unsure or hit
    return unsure


def _clause(text: str, v: str, plan: SubjectPlan) -> str | None:
    """The words that make a clause naming the subject a statement the rules cannot judge."""
    if v and v in text:
        return None
    if len(_names(text, plan)) < plan.need:
        return None
    if _NARROWED.search(text):
        return None  # "can no longer be modified", "Nobody may write", "Only the DBA may": a rule, narrowed
    change = _CHANGE.search(text)
    if change:
        return change.group()
    if (denies(text) or upheld(text) or _DENY_MORE.search(text) or _PROHIBITION.search(text) or _STILL.search(text)
            or _READ_ONLY.search(text)):
        return None
    m = _GRANT.search(text) if plan.acts else None  # a grant restated is the grant (the scope rules read widening)
    if m:
        return m.group()
    if not plan.acts or _away(text, plan):
        return None
    for m in [*_PAST.finditer(text), *_DONE_ZH.finditer(text)]:
        if m.group() not in _HARMLESS_EN:  # "rebased on main", "backed up": nothing done to it
            return m.group()
    return None


def _away(text: str, plan: SubjectPlan) -> bool:
    """Every naming of the subject follows a word that points away from it ("against main")."""
    at = [m.start() for piece in plan.pieces for form in piece
          for m in re.finditer(rf"(?<![a-z0-9]){re.escape(form)}" if not CJK.search(form) else re.escape(form), text)]
    return bool(at) and all(_AWAY.search(text[max(0, p - 20):p]) for p in at)


def _amount(text: str, limit: Limit, whole: bool = False) -> tuple[str, bool] | None:
    """(words, decided) when the sentence gives the limit another amount, or changes it with
    no amount; None when it only restates or measures within it. ``whole``: the sentence names
    the whole subject — then a time after "is" is the setting ("The session timeout is 90
    minutes."), decided: time units convert exactly (verdict-nine; bytes stay unjudged)."""
    change = _CHANGE.search(text) or _GRANT.search(text)
    for amount, words, cue in amounts_in(text, limit):
        at = text.find(words)
        cue = cue or (whole and limit.dimension == "time" and at > 0 and _COPULA.search(text[:at]) is not None)
        if math.isnan(amount):
            return f"{words} (another currency)", False  # no rule converts: not judged
        if abs(amount - limit.amount) <= 1e-9 * max(abs(amount), 1):
            continue
        if limit.upper and amount < limit.amount:
            continue  # within the limit: a measurement or a stricter telling
        return words, bool(cue or change)
    if _CHANGE.search(text):
        return _CHANGE.search(text).group(), False  # type: ignore[union-attr]
    return None


def _order(said: Said, v: str, order: Order, elsewhere: frozenset[int]) -> Statement | None:
    """The later step told done and the earlier one told done further on, in any paragraph."""
    units: list[tuple[int, str]] = []
    for i, s in enumerate(said.sentences):
        if (v and v in s.text) or i in elsewhere:
            continue
        units += [(i, _LABEL.sub("", _CODE.sub(" ", part))) for part in _UNIT_CUT.split(s.text) if part.strip()]

    def names(text: str, words: tuple[str, ...]) -> bool:
        # The step itself, or half its other telling words ("跑了迁移" names "跑迁移" by "迁移").
        rest = words[1:]
        return first_at(text, words[0]) >= 0 or (
            bool(rest) and sum(1 for w in rest if first_at(text, w) >= 0) >= max(1, math.ceil(len(rest) / 2)))

    def done(text: str) -> bool:
        return bool(_DONE_EN.search(text) or _DONE_ZH.search(text)) and not (denies(text) or _PLAN.search(text))

    for i, text in units:
        if names(text, order.first) and _SKIP.search(text):
            return Statement(CODE, (_SKIP.search(text).group(),), said.stripped(said.sentences[i]), False)  # type: ignore[union-attr]
    for a, (i, text) in enumerate(units):
        if not names(text, order.then) or names(text, order.first) or not done(text):
            continue
        for j, later in units[a + 1:a + 1 + _REACH]:
            if not names(later, order.first) or names(later, order.then) or not done(later):
                continue
            if _BEFORE.search(later):
                return None  # "had migrated beforehand": told late, done early
            where = " … ".join(dict.fromkeys(said.stripped(said.sentences[k]) for k in (i, j)))
            after = _AFTER.search(later)
            if after:
                return Statement("order_reversed", (after.group(),), where, True)
            return Statement(CODE, (f"{order.then[0]} told before {order.first[0]}",), where, False)
        return None
    return None


__all__ = ["CODE", "Statement", "SubjectPlan", "subject_leads", "subject_plan", "subject_statement"]
