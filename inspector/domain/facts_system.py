"""The rules a conversation's system prompt sets: pending constraint records (verdict-real-three).

The constraint rule (facts_text) reads only what the user typed, so the instructions an operator
gave the model before the conversation began were no record at all, and a summary that dropped
them was judged as keeping everything. They are the session's rules as much as the user's: the
real transcripts in ../shared/real_sessions carry them in every format with a system role —
"Use the player's name in the response." (the DeepSeek dice game), "Give short answers." and
"You MUST use the update_plan tool …" (OpenAI Responses ``instructions``), "it is important that
you only respond with exactly "Yes" or "No"" (15 Inspect AI samples), "Please assume that the
reader is also well versed … and provide a short response in a few words." (Inspect AI
security-guide).

Which events: a ``system_message`` that comes before the first user message (the prompt, not a
note mid-session) and has no ``subtype`` — Claude Code's and Gemini CLI's own system lines
(compact boundary, hook summaries, update banners) carry one and are the harness, not the
operator. Which sentences: one a user rule would be (facts_text.constraint_word), or one that
tells the model what to do — an imperative ("Give short answers.", "Please assume …"), "you
must/should/need to …", "it is important that you …", "If so, tell them …". A sentence that says
what the model is ("You are a helpful assistant.") or describes a tool is no rule. Each is a
``pending`` proposal like every other: it binds nothing until a person confirms it.
"""

from __future__ import annotations

import re

from inspector.domain.facts_condition import with_condition
from inspector.domain.facts_text import SENTENCE_MAX, Proposal, constraint_word, user_sentences
from inspector.domain.logevents import LogEvent
from inspector.domain.textnorm import norm

RULE = "constraint.system"

# An instruction's first word, after "please" (and "please note:"): the verbs a system prompt
# tells the model with. A sentence opening with "You are …" or "The following …" describes.
_IMPERATIVE = re.compile(
    r"^(?:please[\s,]+(?:note[:,]?\s+)?)?(?:if\b[^,]{1,80},\s*)?(?:always\s+|only\s+|never\s+)?"
    r"(?:use|give|answer|respond|reply|provide|write|keep|be|tell|assume|return|include|format|call|ask|"
    r"follow|output|explain|cite|limit|refuse|check|make|list|show|state|prefer|remember|speak|treat|"
    r"stay|act|begin|start|end|think|consider|verify|confirm|report|summari[sz]e|avoid|do)\b")
_ADDRESSED = re.compile(
    r"\byou\s+(?:must|should|shall|need\s+to|have\s+to|are\s+(?:required|expected|not\s+allowed)\s+to|"
    r"may\s+only|can\s+only|will\s+only|may\s+not|cannot|can't|ought\s+to)\b|"
    r"\bit\s+is\s+(?:important|essential|crucial|critical|vital|mandatory|required)\s+that\s+you\b")
_ZH = re.compile(r"^(?:请|务必|一定要|必须|不要|不得|禁止|只能|始终|总是|永远不要)")
_RULE_MIN = 4


def system_rule(sentence: str) -> str | None:
    """What makes a sentence of a system prompt a rule (the word or form), or None."""
    s = norm(sentence)
    word = constraint_word(sentence)
    if word is not None:
        return word
    if (m := _ADDRESSED.search(s)) is not None:
        return " ".join(m.group(0).split())
    if _IMPERATIVE.match(s) is not None or _ZH.match(sentence.strip()) is not None:
        return "imperative"
    return None


def _prompt(e: LogEvent) -> bool:
    return (e.kind == "system_message" and e.trust == "system" and bool(e.content)
            and "subtype" not in e.extra and not e.extra.get("compact_summary"))


# The sentence that sets the model's task (verdict-twelve): a role and what to do in it ("You're a
# dice game, you should roll the die and see if …"), or "Your task is to …". A goal, not a rule —
# unless it also restricts ("You are a bot that must never …"): then it is a rule as before.
_TASK = re.compile(
    r"^(?:you(?:'re|\s+are)\s+(?:a|an|the)\b[^.;]{1,100}?[,;]?\s*(?:and\s+)?(?:you\s+(?:should|will|need\s+to|"
    r"have\s+to|are\s+(?:tasked\s+with|asked\s+to))|your\s+(?:task|job|goal|role)\s+is)\b|(?:your|the)\s+(?:task|job|goal|mission|objective)\s+is\s+to\b)")
_RESTRICTS = re.compile(r"(?<![a-z])(?:never|not|only|always|no|don't|must)(?![a-z])")
GOAL_RULE = "goal.system"


def system_constraints(events: list[LogEvent], seen_user: bool = False) -> tuple[list[Proposal], bool]:
    """The proposals of the system prompt among ``events`` (in seq order) — its rules (constraints)
    and its task sentence (a goal) — and whether a user message has been seen by their end (what the
    next stretch of a followed log starts from)."""
    out: list[Proposal] = []
    for e in events:
        if seen_user:
            break
        if e.kind == "user_message":
            seen_user = True
            continue
        if not _prompt(e):
            continue
        for s in user_sentences(e.content or ""):
            if len(s) > SENTENCE_MAX or len(s) < _RULE_MIN or s.endswith(("?", "？")) or s.startswith("<"):
                continue
            if _TASK.match(norm(s)) and not _RESTRICTS.search(norm(s)):
                out.append(Proposal("goal", s.rstrip("。.!！ "), e.seq, f"{GOAL_RULE}:task"))
                continue
            word = system_rule(s)
            if word is None:
                continue
            joined = with_condition(user_sentences(e.content or ""), s, SENTENCE_MAX)
            if joined is None:
                continue  # its condition is not there to say: no rule rather than half of one
            s = joined
            out.append(Proposal("constraint", s.rstrip("。.!！ "), e.seq, f"{RULE}:{word}"))
    return out, seen_user


def from_prompt(rule: str | None) -> bool:
    """Whether a record was proposed from the system prompt (its rule): a rule or its task sentence."""
    return (rule or "").startswith((RULE, GOAL_RULE))


def not_replaced(sources: tuple[str, ...] | list[str]) -> str:
    """Why survival does not call a system prompt's rule ``missing`` from a summary that does not
    restate it: the prompt is sent with every request (Anthropic ``system``, Responses
    ``instructions``, a system message kept ahead of the summary), and a compaction replaces the
    conversation, not the prompt — the DeepSeek, Responses and Inspect AI rules would all be
    "lost" by every faithful summary. Not ``kept`` either: the summary does not say it, and the
    log cannot show what the harness re-sends. So ``unknown``, naming what was not judged; a
    summary that contradicts the rule is still ``contradicted`` (the model reads both)."""
    return (f"a rule of the system prompt ({', '.join(sources)}): the summary does not restate it, and the "
            "prompt is sent beside the summary with every request, not replaced by it — not judged here; "
            "check that this harness re-sends its system prompt")
