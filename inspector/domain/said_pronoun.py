"""A rule referred to by a pronoun two to four sentences away: "Never push to main. The tests
pass. We can ignore it now." / "约束：不得推送到 main。测试都通过了。它已不再适用。"

``said_negation`` reads "it" in the value's own sentence and the very next one; "that
constraint" is read anywhere (``said_lifted``). A bare pronoun further away may be the rule or
anything named in between, and no exact rule can resolve it. So:

- a clause that lifts a *rule* through the pronoun — words only a rule can take: "it no
  longer applies", "it was lifted", "it is waived", "它已不再适用", "这条已取消" — undoes the
  nearest protected rule stated two to four sentences before it, when no other protected
  value stands between (``protected_negated``, decided); five or more sentences away (any
  distance) it is ``reference_unresolved``: so much text lies between that "it" may be
  anything named there;
- a clause that only dismisses the pronoun — "we can ignore it now", "drop it", "forget
  that", "可以不管它了", "这条可以忽略了" — may mean the rule or the failure, warning or file
  named in between: the verdict is that the rule **cannot judge** (``reference_unresolved``,
  a warning that turns ``check``'s line to ``?`` and survival's verdict to ``unknown``), never
  a silent "kept". Reported past acts ("we ignored it") are not read: they report, not lift.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.domain.said import Said, norm_phrase

_RULE_LIFT = re.compile(
    r"(?<![a-z])(?:it|this|that)\s+(?:now\s+|also\s+)?(?:no longer applies|does not apply any more|doesn't apply any more|"
    r"no longer holds|is no longer (?:needed|required|in force|binding|relevant)|(?:is|was|has been) (?:now )?"
    r"(?:lifted|waived|revoked|rescinded|relaxed|cancelled|canceled|void|obsolete|overridden))(?![a-z])|"
    r"(?:它|这条|该条|那条|此条)(?:规定|约束|限制)?(?:现在|已经|已|也)*(?:不再适用|不适用了|失效了?|作废了?|已?取消了?|已?解除了?|已?放宽了?)")
_DISMISS = re.compile(
    r"(?<![a-z])(?:(?:can|could|may|should|will|to|let's|just|now)\s+(?:safely\s+)?"
    r"(?:ignore|disregard|drop|forget|skip|bypass|override)|^\W*(?:ignore|disregard|drop|forget|skip))\s+"
    r"(?:it|this|that)(?=\s*(?:$|[.,;:!]|now\b|too\b|as well\b|from now on\b|for now\b|going forward\b|entirely\b))|"
    r"(?<![a-z])(?:it|this|that)\s+(?:can|could|may|should)\s+(?:now\s+|safely\s+)?be\s+(?:safely\s+)?"
    r"(?:dropped|ignored|disregarded|skipped|forgotten|bypassed|overridden)(?![a-z])|"
    r"(?:可以|能|就|也)?(?:不用管|不必管|不管|忽略|无视|不理)(?:它|这条|那条|这个)了?|"
    r"(?:它|这条|那条)(?:现在|已经|也)*(?:可以)?(?:忽略|不用管|不管)了?")
_PRONOUN_LEADS = re.compile("it|this|that|它|这条|那条|该条|此条|这个")  # every pattern above holds one
_REACH = 4  # sentences after the rule's own a lift is decided at: 2 to 4 (the next one is said_negation's)


@dataclass(frozen=True, slots=True)
class PronounHit:
    words: list[str]
    sentence: str
    decided: bool  # a rule-only lift (a finding); False: a dismissal the rule cannot resolve


def pronoun_lead(said: Said) -> bool:
    """A word every pronoun rule holds ("it", "this", "that", "它", "这条"…) is in the text (one
    search per generation, shared with the scope rule's "you may also … it")."""
    key = ("pronoun_lead",)
    found = said._memo.get(key)
    if found is None:
        found = said._memo[key] = _PRONOUN_LEADS.search(said.text) is not None
    return found  # type: ignore[no-any-return]


def pronoun_sentences(said: Said) -> list[tuple[int, str, bool, int]]:
    """(sentence index, words, decided, offset) of the sentences lifting or dismissing a bare pronoun
    (once per generation; most texts have none)."""
    key = ("pronoun_sentences",)
    found = said._memo.get(key)
    if found is None:
        found = []
        text = said.text
        if pronoun_lead(said):
            for pattern, decided in ((_RULE_LIFT, True), (_DISMISS, False)):
                for m in pattern.finditer(text):
                    i = said.sentence_index(m.start())
                    if i >= 0 and all(j != i for j, *_ in found):
                        found.append((i, m.group().strip(), decided, m.start()))
                for i, s in enumerate(said.sentences):  # "^ignore it" per sentence start
                    if pattern is _DISMISS and all(j != i for j, *_ in found):
                        m = pattern.match(s.text.strip())
                        if m:
                            found.append((i, m.group().strip(), False, s.start))
        said._memo[key] = found
    return found  # type: ignore[no-any-return]


def pronoun_lift(said: Said, value: str, others: tuple[tuple[str, str], ...]) -> PronounHit | None:
    """A sentence two or more after the value's last statement that lifts or dismisses a bare
    pronoun, with no other protected value between (see the module's docstring); from five
    sentences on, undecided whatever its words."""
    lifting = pronoun_sentences(said)
    if not lifting:
        return None
    v = norm_phrase(value)
    mine = said.holding(v) if v else {}
    if not mine:
        return None
    for j, words, decided, at in lifting:
        before = [i for i in mine if i < j or (i == j and mine[i] < at)]
        if not before:
            continue
        i = max(before)
        if i == j:
            decided = True  # after the value in its own sentence: "Never push to main, but we can ignore it now"
        elif j - i == 1:
            # The next sentence: a lift only a rule can take is about it; a dismissal may
            # mean the rule or whatever else its sentence named ("… The linter printed a
            # warning. We can ignore it.") — cannot judge.
            pass
        else:
            # Further than _REACH the pronoun may mean anything named in between: even a
            # lift only a rule can take is "cannot judge" there, never a silent "kept".
            decided = decided and j - i <= _REACH
        between = range(i + 1, j + 1)
        if any(k in between for o, _ in others if (on := norm_phrase(o)) and on != v and on not in v
               for k in said.holding(on)):
            continue  # another protected value is nearer: the pronoun is not about this one
        sentence = " … ".join(said.stripped(said.sentences[k]) for k in dict.fromkeys((i, j)))
        return PronounHit([words], sentence, decided)
    return None


__all__ = ["PronounHit", "pronoun_lead", "pronoun_lift", "pronoun_sentences"]
