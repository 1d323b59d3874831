"""What the user allowed: pending permission records (verdict-real-three).

No rule proposed a permission, so the Protected state channel's PERMISSION section was empty on
every imported session and a summary that dropped a grant — or turned it into a refusal — was
judged as keeping everything. Two shapes, both in what the user typed (never tool or model
output):

* a sentence that grants in so many words: "it's fine to disagree, but let me know what you think
  and how to proceed" (the real 4b7d5121 transcript, line 79), "feel free to rename it", "you may
  skip the slow tests", "you're allowed to force-push this branch", "可以直接删除";
* a bare yes to what the assistant just offered to do — the whole message or its first sentence:
  "yes, go ahead" after "Would you like me to implement these changes?" grants *that* — the value is the offer ("implement these changes"),
  citing the assistant's message; "yes" alone names nothing without it, and a yes to a question
  that offers nothing ("Does that make sense?") grants nothing.

A sentence that asks ("can I …?", "is it fine to …?") grants nothing; "if it's fine to X" is a
condition, not a grant. Each is ``pending`` until a person confirms it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from inspector.domain.back_refs import Before
from inspector.domain.facts_text import SENTENCE_MAX, Proposal, own_text, user_sentences
from inspector.domain.logevents import LogEvent
from inspector.domain.textnorm import norm

RULE = "permission"
_GRANT = re.compile(
    r"(?<!\bif )\b(?:it'?s|it is|that'?s|that is)\s+(?:totally\s+|perfectly\s+|also\s+)?(?:fine|ok|okay|alright|acceptable)"
    r"\s+(?:for you\s+)?to\b|\bfeel free to\b|\byou\s+(?:may|are allowed to|'re allowed to|re allowed to|have "
    r"(?:my\s+)?permission to)\b|\bgo ahead and\b|\byou don'?t need to ask\b|^(?:你)?可以直接|^允许你|^随便")
_ASKED = ("?", "？")
_YES_MAX = 40
# A short yes that answers an offer: "yes", "yes, go ahead", "sure, do it", "ok proceed", "好的，继续".
_YES = re.compile(r"^(?:(?:yes|yep|yeah|sure|ok|okay|please|go ahead|do it|proceed|sounds good|lgtm|好的?|可以|行|继续)"
                  r"[\s,.!。，！]*)+$")
# An offer to act, in the assistant's last sentence that asks: the act is what a yes grants.
_OFFER = re.compile(r"(?:would you like me to|do you want me to|want me to|should i|shall i|may i|can i|"
                    r"i can\b[^?]*\bif you (?:want|like)|要我|需要我)\s*(?P<act>[^?？]{3,200})[?？]\s*$", re.IGNORECASE)


def granted_in(sentence: str) -> str | None:
    """The grant words of a sentence, or None (a question grants nothing)."""
    if sentence.endswith(_ASKED):
        return None
    m = _GRANT.search(norm(sentence))
    return m.group(0) if m else None


def offered_act(said: tuple[tuple[int, str], ...]) -> tuple[int, str] | None:
    """The act the assistant's last message offers in its last question ("Would you like me to
    implement these changes?" -> "implement these changes"), with that message's seq."""
    if not said:
        return None
    seq, text = said[-1]
    questions = [s for s in user_sentences(text) if s.endswith(_ASKED)]
    m = _OFFER.search(questions[-1]) if questions else None
    return (seq, " ".join(m.group("act").split()).rstrip(" .")) if m else None


def permissions(events: list[LogEvent], own: Mapping[int, str] | None = None,
                before: Mapping[int, Before] | None = None) -> list[Proposal]:
    """The permission proposals of the user's messages among ``events``."""
    out: list[Proposal] = []
    for e in events:
        text = own_text(e, own)
        if not text:
            continue
        sentences = user_sentences(text)
        prior = before.get(e.seq) if before else None
        # The yes is the message, or its first sentence ("yes, go ahead. Feel free to rebase it first.").
        head = " ".join(norm(sentences[0]).split()) if sentences else ""
        if prior is not None and len(head) <= _YES_MAX and _YES.match(head):
            offer = offered_act(prior.said)
            if offer is not None:
                out.append(Proposal("permission", offer[1], e.seq, f"{RULE}.yes_to_offer", rationale=text.strip(),
                                    cites=(offer[0],)))
            sentences = sentences[1:]
        for s in sentences:
            word = granted_in(s) if len(s) <= SENTENCE_MAX else None
            if word is not None:
                out.append(Proposal("permission", s.rstrip("。.!！ "), e.seq, f"{RULE}.word:{word}"))
    return out
