"""Goals and decisions in what the user replied: the first request, a restated goal, each later
request, and each pick of the options the assistant listed.

A later request (``goal.later_request…``, fresh-eyes F13) is a goal of its own, so a summary
that drops it is judged. Picks and two readings of later requests need what the assistant said
just before, so all are read here, in one pass that carries it from one event to the next (a
followed session is fed in stretches: ``GoalReading`` is what one stretch leaves the next):

* a short reply that picks options the assistant just listed is a decision per picked item
  (``decision.user_pick``; the items not picked are its alternatives);
* the same pick ("Implement 1,2 and 3.", "do 1 and 3", "go with option B") is also a request —
  the work the person chose. Its goal names the picked items as the assistant's list wrote them
  ("1. X; 3. Z") and cites the list and the pick. A pick nothing before it lists is no goal: its
  words ("do 1 and 3") name nothing a summary could keep;
* a line the user pasted back from the assistant, or quoted with "> ", is the assistant's words,
  not a new task, pick or restated goal (own_words.unquoted). The same reading tells the
  constraint and reference rules (facts_text) which words of the message are the user's own:
  ``GoalReading.own`` carries them, since only this pass knows what the assistant said recently.
  The first request is the goal of the session even when the user only pasted a quote (an error
  to fix): its own words when it has any, else the whole message.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.domain.back_refs import Before, endorsement
from inspector.domain.facts_text import (
    Proposal,
    constraint_word,
    first_chunk,
    options_labelled,
    picks,
    request_text,
    user_sentences,
)
from inspector.domain.facts_user_stated import only_a_choice
from inspector.domain.later_requests import asks, asks_question, greeting, is_request
from inspector.domain.logevents import LogEvent
from inspector.domain.own_words import RecentSaid, pasted_form, split_quoted
from inspector.domain.wordlists import wordlist

LATER_REQUEST = "goal.later_request"  # the rule, and the head of the key, of a request made after the first
# The rule of the message a compaction cut short (keyed as a later request): see ``_boundary``.
IN_PROGRESS = "goal.in_progress"
_TURN_KINDS = frozenset({"user_message", "assistant_message", "tool_call", "tool_result"})


@dataclass(slots=True)
class GoalReading:
    """The goal proposals so far, and what the next user message is read against: the options the
    assistant listed last and not yet answered, and what the assistant said recently."""
    proposals: list[Proposal] = field(default_factory=list)
    offered: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # each offered label as the list wrote it
    offered_at: int = 0
    said: RecentSaid = field(default_factory=RecentSaid)
    # The user's own words of each message of the stretch read last that quoted or pasted a line,
    # by seq: what the constraint and reference rules read instead of the whole message.
    own: dict[int, str] = field(default_factory=dict)
    # What each user message of the stretch read last can point back to ("keep that rule":
    # back_refs.py), by seq; and what the next one can: the assistant's messages since the
    # user's last message, and that message's own words.
    before: dict[int, Before] = field(default_factory=dict)
    turn: list[tuple[int, str]] = field(default_factory=list)
    asked: tuple[int, str] | None = None
    # The user's last message that no goal record carries when it asks a question, and
    # the kind of the last event of the conversation: a compaction right after a tool call or
    # result cut that message's turn short (``_boundary``).
    unanswered: tuple[int, str] | None = None
    last_kind: str | None = None


def read_replies(events: list[LogEvent], reading: GoalReading) -> list[Proposal]:
    """Read events that follow the ones ``reading`` was left by: their goal proposals are added to
    ``reading.proposals``; their decision proposals are returned."""
    restate = wordlist("goal_restatement")
    out, decisions = reading.proposals, []
    reading.own, reading.before = {}, {}
    for e in events:
        if _compaction(e):
            _boundary(reading)
            continue
        if e.kind in _TURN_KINDS and not e.extra.get("compact_summary"):
            reading.last_kind = e.kind
        if e.kind == "assistant_message" and e.content:
            reading.said.add(e.content, e.seq)
            reading.turn.append((e.seq, e.content))
            options, labels = options_labelled(e.content)
            if options:
                reading.offered, reading.labels, reading.offered_at = options, labels, e.seq
            continue
        text = request_text(e)
        if text is None:
            continue
        offered_now = reading.offered
        split = split_quoted(text, reading.said, (lambda line: bool(_chosen(line, offered_now))) if offered_now else None)
        rest = None if split is None else split[0]
        if rest is not None:
            reading.own[e.seq] = rest
        own = text if rest is None else rest
        quoted = tuple((reading.said.said_in(pasted_form(line.lstrip(" \t>"))), line) for line in split[1]) if split else ()
        reading.before[e.seq] = Before(quoted, tuple(reading.turn), reading.asked)
        reading.turn, reading.asked = [], (e.seq, own)
        offered, reading.offered = reading.offered, {}  # a user's reply answers the list, or leaves it
        chosen = _chosen(own, offered)
        if chosen:
            alternatives = [v for k, v in offered.items() if k not in chosen]  # set aside: only what was not picked
            for pick in chosen:  # "1, 2 and 3": a decision each, none the others' alternative
                decisions.append(Proposal("decision", offered[pick], e.seq, "decision.user_pick",
                                          rationale=" ".join(own.split())[:300], alternatives=alternatives,
                                          detail={"offered_in": f"evt:{reading.offered_at}"}))
        proposed = len(out)
        if not out:
            # A greeting opens the conversation and asks nothing: the first request is the next
            # message (a "Hello!" goal was "missing" from a summary that kept it: verdict-real).
            if not greeting(own or text):
                out.append(Proposal("goal", first_chunk(own or text), e.seq, "goal.first_request"))
        elif restate.first(" ".join(own.casefold().split())[:400]) is not None:
            out.append(Proposal("goal", first_chunk(own), e.seq, "goal.restated"))
        else:
            later = _later_request(own, rest is not None, e.seq, reading, offered, chosen)
            if later is not None:
                out.append(later)
        # A question no goal carries (an acknowledgement or a bare pick asks nothing to keep).
        reading.unanswered = (e.seq, own) if len(out) == proposed and out and asks_question(own) else None
    return decisions


def _compaction(e: LogEvent) -> bool:
    """Where the history was replaced: a Claude Code ``compact_boundary``, a Codex ``compacted``
    line, an Anthropic ``compaction`` block or a Responses ``compaction`` item (the last two come
    first in the answer that replaced the history, so the turn before them is the one cut short)."""
    return ((e.kind == "system_message" and e.extra.get("subtype") == "compact_boundary")
            or (e.kind == "other" and (e.extra.get("compacted") is True or e.extra.get("compaction") is True)))


def _boundary(reading: GoalReading) -> None:
    """A compaction (``_compaction``) right after a tool call or result cut the turn short: the
    user's last message is what the agent was answering, so the summary must carry it even when it
    only asks a question. The real 7662d755 transcript: "but one more question, we are also deleting
    shadow branches, so how could it still be there? …" at evt:132, the agent still reading session
    files when the compaction came (verdict-real). It is keyed as a later request."""
    if reading.unanswered is not None and reading.last_kind in ("tool_call", "tool_result"):
        seq, own = reading.unanswered
        reading.proposals.append(Proposal("goal", first_chunk(own), seq, IN_PROGRESS))
    reading.unanswered = None


def _chosen(text: str, offered: dict[str, str]) -> list[str]:
    """The offered labels a reply picks ("Implement 1,2 and 3."), none unless it picks one first."""
    labels = picks(text) if offered else []
    return [k for k in labels if k in offered] if labels and labels[0] in offered else []


def _later_request(text: str, quoted: bool, seq: int, reading: GoalReading, offered: dict[str, str],
                   chosen: list[str]) -> Proposal | None:
    """``text`` is the user's own words; ``quoted`` when the message quoted or pasted a line."""
    if quoted and not asks(text):  # a reply about the assistant's words: a request only when it asks outright
        return None
    if chosen:
        items = "; ".join(f"{reading.labels.get(k, k)}. {offered[k]}" for k in chosen)
        return Proposal("goal", items, seq, LATER_REQUEST, detail={"offered_in": reading.offered_at})
    if picks(text):
        return None  # a pick nothing before it lists names nothing a summary could keep
    if is_request(text) and not _only_rules(text):
        # A message of rules only is its constraint records.
        return Proposal("goal", first_chunk(text), seq, LATER_REQUEST)
    return None


def _only_rules(text: str) -> bool:
    """Every sentence of the message that asks something is a constraint ("Never touch the
    production database." said again), agrees to one ("yes, keep that rule": back_refs) or states a
    choice and little else ("ok, let's keep the timeout at 45m rather than 60m": facts_user_stated): its
    constraint or decision records carry it, not a later request."""
    return all(not is_request(s) or constraint_word(s) is not None or endorsement(s) is not None
               or only_a_choice(s) for s in user_sentences(text))
