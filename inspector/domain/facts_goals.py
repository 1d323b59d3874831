"""Goals in what the user typed: the first request, a restated goal, and each later request.

A later request (``goal.later_request…``, fresh-eyes F13) is a goal of its own, so a summary
that drops it is judged. Two readings need what the assistant said just before, so they are
read here, in one pass that carries it from one event to the next (a followed session is fed
in stretches: ``GoalReading`` is what one stretch leaves the next):

* a pick of the options the assistant listed ("Implement 1,2 and 3.", "do 1 and 3", "go with
  option B") is a request — the work the person chose. Its goal names the picked items as the
  assistant's list wrote them ("1. X; 3. Z") and cites the list and the pick. (Each picked item
  is also a decision, ``facts_text.decisions``.) A pick nothing before it lists is no record:
  its words ("do 1 and 3") name nothing a summary could keep;
* a line the user pasted back from the assistant, or quoted with "> ", is the assistant's words,
  not a new task (later_requests.unquoted).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from inspector.domain.facts_text import (
    Proposal,
    constraint_word,
    first_chunk,
    options_labelled,
    picks,
    request_text,
    user_sentences,
)
from inspector.domain.later_requests import asks, is_request, pasted_form, unquoted
from inspector.domain.logevents import LogEvent
from inspector.domain.wordlists import wordlist

LATER_REQUEST = "goal.later_request"  # the rule, and the head of the key, of a request made after the first
# How many of the assistant's last messages a pasted line is looked for in (the real paste quoted a
# message four assistant messages back).
RECENT_SAID = 10


@dataclass(slots=True)
class GoalReading:
    """The goal proposals so far, and what the next user message is read against: the options the
    assistant listed last and not yet answered, and what the assistant said recently."""
    proposals: list[Proposal] = field(default_factory=list)
    offered: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # each offered label as the list wrote it
    offered_at: int = 0
    said: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_SAID))


def goals(events: list[LogEvent]) -> list[Proposal]:
    return goals_from(events, GoalReading()).proposals


def goals_from(events: list[LogEvent], reading: GoalReading) -> GoalReading:
    """``goals`` of events that follow the ones ``reading`` was left by; updates and returns it."""
    restate = wordlist("goal_restatement")
    out = reading.proposals
    for e in events:
        if e.kind == "assistant_message" and e.content:
            reading.said.append(pasted_form(e.content))
            options, labels = options_labelled(e.content)
            if options:
                reading.offered, reading.labels, reading.offered_at = options, labels, e.seq
            continue
        text = request_text(e)
        if text is None:
            continue
        offered, reading.offered = reading.offered, {}  # a user's reply answers the list, or leaves it
        if not out:
            out.append(Proposal("goal", first_chunk(text), e.seq, "goal.first_request"))
        elif restate.first(" ".join(text.casefold().split())[:400]) is not None:
            out.append(Proposal("goal", first_chunk(text), e.seq, "goal.restated"))
        else:
            later = _later_request(text, e.seq, reading, offered)
            if later is not None:
                out.append(later)
    return reading


def _later_request(text: str, seq: int, reading: GoalReading, offered: dict[str, str]) -> Proposal | None:
    rest = unquoted(text, reading.said)
    if rest is not None:  # a reply about the assistant's words: a request only when it asks outright
        if not asks(rest):
            return None
        text = rest
    chosen = picks(text)
    if chosen:
        if not offered or chosen[0] not in offered:
            return None
        items = "; ".join(f"{reading.labels.get(k, k)}. {offered[k]}" for k in chosen if k in offered)
        return Proposal("goal", items, seq, LATER_REQUEST, detail={"offered_in": reading.offered_at})
    if is_request(text) and not _only_rules(text):
        # A message of rules only is its constraint records.
        return Proposal("goal", first_chunk(text), seq, LATER_REQUEST)
    return None


def _only_rules(text: str) -> bool:
    """Every sentence of the message that asks something is a constraint ("Never touch the
    production database." said again): its constraint records carry it, not a later request."""
    return all(not is_request(s) or constraint_word(s) is not None for s in user_sentences(text))
