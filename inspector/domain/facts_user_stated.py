"""Decisions, preferences and values the user stated in their own words (verdict-real-five).

Only a pick of the options the assistant listed was a decision (``decision.user_pick``): "use
`entire`, not `go run`", "let's go with Redis", "I'd rather recover gracefully than fail early",
"set the notarize timeout to 45m" were no record, so a summary that flipped or dropped them
was judged like one that kept them (verdict-real-four: micro-localdev-flipped,
auto-preference-lost, release-timeout-number — each "?" only through blanket warnings).

Read here, in the user's own sentences only (``facts_text.own_text``: not a line quoted or
pasted back, not fenced code; not a question, not a rule the constraint rules already propose),
three shapes, each a pending ``decision`` citing its event:

* **a choice against another** — "X instead of Y", "X rather than Y", "X, not Y", "prefer X
  over/to Y", "用 X 而不是 Y", "不用 Y，改用 X": the decision is X, its alternative Y, the
  sentence its rationale (so ``said_decisions`` reads a summary that states Y as the choice:
  ``decision_reversed``, survival ``contradicted``). X must open with a choosing word ("use",
  "keep", "go with", "let's …", "I'd prefer …") — "the hook uses `go run` instead of `entire`"
  tells what the code does, it decides nothing;
* **a choice** — "let's/we'll/I decided to" + a choosing verb (use, go with, stick with, switch
  to, keep, pick, choose, drop, skip), "I('d) prefer X", "I'd rather X", "我们决定用 X",
  "就用 X", "我倾向于 X": the decision is the clause after the opener. "Let's start there first",
  "let's look at the tests" choose nothing and are not read;
* **a value** — "set/change/make/bump/raise/lower/increase/reduce/cap/limit the X to N[unit]", "把 X
  改成/设为/调到 N": the clause, a number in it (so a summary giving the same subject another number
  reads as a change: ``negated_value``'s renumbering).

Kept few on purpose: each is a record a reviewer must read and confirm. The real transcripts in
../shared/real_sessions give 0 to 1 each (docs/reviews/verdict-real-five.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from inspector.domain.facts_text import Proposal, constraint_word, own_text, user_sentences
from inspector.domain.logevents import LogEvent

RULE = "decision.user_stated"
_MAX = 240

# Fillers a spoken choice opens with ("ok, so let's …", "yes — use …").
_LEAD = re.compile(r"^(?:(?:ok(?:ay)?|so|yes|yeah|yep|no|nope|alright|right|then|and|but|well|actually|hmm+|fine|"
                   r"good|great|cool|sure|thanks|please|i think|i guess|maybe)\b[\s,.!:;—–-]*)+", re.IGNORECASE)
_CHOOSE_VERB = (r"(?:use|go with|go for|stick with|stick to|switch to|keep|pick|choose|drop|skip|adopt|stay with|"
                r"move to|migrate to)")
_OPENER = (rf"(?:let'?s|let us|we'?ll|we will|we should|we'?re going to|i(?:'ve| have)? decided(?: to)?|"
           rf"i want (?:you )?to|i'?d like (?:you )?to)\s+(?:just\s+|always\s+)?{_CHOOSE_VERB}\b")
_PREFER = r"(?:i(?:'d| would)? (?:rather|prefer)|i(?:'d| would)? prefer to|my preference is(?: to)?|prefer)\b"
# Against another, X must open with one of these (after the lead): a choosing word, an opener with any
# verb ("we should recover gracefully instead of just failing"), a preference, or a subject that
# "should use/be" something ("localDev=false should use `entire`, not `go run`").
_CHOOSES = re.compile(rf"^(?:(?:let'?s|let us|we'?ll|we will|we should|we'?re going to|i(?:'ve| have)? decided(?: to)?|"
                      rf"i want (?:you )?to|i'?d like (?:you )?to)\s|{_PREFER}|{_CHOOSE_VERB}\b|"
                      rf"[^,;]{{1,60}}?\bshould\s+(?:always\s+)?(?:use|be|stay|remain)\b)", re.IGNORECASE)
_AGAINST = re.compile(r"^(?P<x>.{3,160}?)\s*,?\s+(?:instead of|rather than)\s+(?P<y>[^,.;!]{2,80})"
                      r"|^(?P<x2>.{3,160}?),\s*(?:and\s+)?not\s+(?P<y2>[^,.;!]{2,60})[.!]?$"
                      r"|^(?P<x3>.*?\bprefer\s+.{2,100}?)\s+(?:over|to)\s+(?P<y3>[^,.;!]{2,80})"
                      r"|^(?P<x4>.*?\brather\s+.{2,100}?)\s+than\s+(?P<y4>[^,.;!]{2,80})", re.IGNORECASE)
_CHOICE = re.compile(rf"^(?:{_OPENER}|{_PREFER})\s*(?P<x>.{{2,160}})$", re.IGNORECASE)
_NUMBER = re.compile(r"\d")
_VALUE = re.compile(r"^(?:please\s+)?(?:set|change|make|bump|raise|lower|increase|reduce|cap|limit|put)\s+"
                    r"(?P<what>[^,;.!?]{1,60}?)\s+(?:to|at)\s+(?P<n>\d[\d.,_]*\s?(?:%|[a-z]{1,8})?)(?![\w])",
                    re.IGNORECASE)
# Chinese: 用 X 而不是 Y / 用 X，不用 Y / 不用 Y，改用 X / 就用 X / 决定用 X / 倾向于 X / 把 X 改成 N.
_ZH_AGAINST = re.compile(r"(?:^|[，,])\s*(?:我们|咱们)?(?:还是|就|改|统一)?用(?P<x>[^，。；,;！]{1,30}?)(?:而不是|，\s*(?:不要|别|不)用)"
                         r"(?P<y>[^，。；,;！]{1,30})|不(?:要)?用(?P<y2>[^，。；,;！]{1,30})[，,]\s*(?:改|还是|就)?用"
                         r"(?P<x2>[^，。；,;！]{1,30})")
# A Chinese choice opens its clause, and "决定" needs a choosing verb after it: "决定了该走哪条路径"
# and "决定说明采用了什么" (expository text, the seeds) choose nothing.
_ZH_CHOICE = re.compile(r"(?:^|[，,]\s*)(?:(?:我们|咱们|我)?决定(?:了)?(?:用|采用|改用)|(?:我们|咱们)?(?:就用|还是用|改用|统一用)|"
                        r"我(?:更)?倾向于?|我更喜欢)\s*(?P<x>[^，。；,;！？?]{2,40})")
_ZH_VALUE = re.compile(r"把(?P<what>[^，。；,;！？?]{1,20}?)(?:改成|改为|设为|设成|调到|调成|设置为|设置成|限制在|控制在)\s*"
                       r"(?P<n>\d[\d.]*\s?[^\s，。；,;！？?]{0,4})")


# A choice of nothing but these names nothing to keep ("I would rather not", "let's keep it").
_NAMES_NOTHING = frozenset({"not", "it", "that", "this", "so", "them", "one", "those", "these", "do", "that's", "there",
                            "here", "now", "then", "as", "is", "way", "the", "same", "for"})


# A label alone ("go with option B" with no list before it): a pick of nothing the log shows.
_LABEL = re.compile(r"(?:(?:go with|use|pick|choose|take)\s+)?(?:option|approach|plan|variant|方案|选项)?\s*[A-Da-d1-9]",
                    re.IGNORECASE)


# The opener of a choice, left out of its value: "let's keep the timeout at 45m" is kept by a summary
# saying "keep the timeout at 45m" (the rationale keeps the whole sentence).
_OPENS = re.compile(r"^(?:let'?s|let us|we'?ll|we will|we should|we'?re going to|i(?:'ve| have)? decided(?: to)?|"
                    r"i want (?:you )?to|i'?d like (?:you )?to|i(?:'d| would)? (?:rather|prefer)(?: to)?|"
                    r"my preference is(?: to)?|prefer)\s+", re.IGNORECASE)


def _value(text: str) -> str:
    return _clean(_OPENS.sub("", _clean(text)))


def _clean(text: str) -> str:
    return " ".join(text.split()).strip(" ,;:—–-").rstrip(".!。！")


def stated(sentence: str) -> tuple[str, list[str], str] | None:
    """(decision, alternatives, form) the sentence states, or None (the module's shapes)."""
    s = _LEAD.sub("", sentence.strip())
    if len(s) > _MAX or s.endswith(("?", "？")):
        return None
    m = _AGAINST.search(s)
    if m is not None:
        x = m.group("x") or m.group("x2") or m.group("x3") or m.group("x4")
        y = m.group("y") or m.group("y2") or m.group("y3") or m.group("y4")
        if _CHOOSES.match(_LEAD.sub("", x)):
            return _value(_LEAD.sub("", x)), [_clean(y)], "against"
    m = _VALUE.match(s)
    if m is not None:
        return _clean(m.group()), [], "value"
    m = _CHOICE.match(s)
    if m is not None and not set(re.findall(r"[\w']+", m.group("x").casefold())) <= _NAMES_NOTHING \
            and not _LABEL.fullmatch(m.group("x").strip(" .!")):
        return _value(s), [], "choice"
    m = _ZH_AGAINST.search(s)
    if m is not None:
        x, y = m.group("x") or m.group("x2"), m.group("y") or m.group("y2")
        return _clean("用" + x), [_clean(y)], "against"
    m = _ZH_VALUE.search(s)
    if m is not None and _NUMBER.search(m.group("n")):
        return _clean(m.group()), [], "value"
    m = _ZH_CHOICE.search(s)
    if m is not None and not _LABEL.fullmatch(m.group("x").strip(" .!。")):
        return _clean(m.group().lstrip("，, ")), [], "choice"
    return None


def only_a_choice(sentence: str) -> bool:
    """The sentence states a choice and little else (its decision and alternatives are half its words or
    more): "ok, let's keep the timeout at 45m rather than 60m." is its decision record, not also a later
    request; "let's use Postgres instead of SQLite for the new service, and add the migration" asks
    for more than it chooses, and stays a request too."""
    found = stated(sentence)
    if found is None:
        return False
    body = _LEAD.sub("", sentence.strip())
    return len(found[0]) + sum(len(a) for a in found[1]) >= 0.5 * len(body)


def user_stated(events: list[LogEvent], own: Mapping[int, str] | None = None) -> list[Proposal]:
    """The decisions the user stated in their own sentences (pending, citing the event)."""
    out: list[Proposal] = []
    for e in events:
        if e.kind != "user_message":
            continue
        text = own_text(e, own)
        if not text:
            continue
        for sentence in user_sentences(text):
            if constraint_word(sentence) is not None:
                continue  # a rule: the constraint rules propose it
            found = stated(sentence)
            if found is None:
                continue
            value, alternatives, form = found
            out.append(Proposal("decision", value, e.seq, f"{RULE}:{form}", rationale=_clean(sentence)[:300],
                                alternatives=alternatives))
    return out


def with_picks(picks: list[Proposal], events: list[LogEvent], own: Mapping[int, str] | None) -> list[Proposal]:
    """The picks (``facts_goals``) and the stated decisions of ``events``, in the order they were said
    (the whole log's extraction and a followed session's running one read them alike)."""
    picked = {p.seq for p in picks}  # "Let's go with B" is the pick of B, not a choice of "B"
    return sorted([*picks, *(p for p in user_stated(events, own) if p.seq not in picked)], key=lambda p: p.seq)


__all__ = ["RULE", "only_a_choice", "stated", "user_stated", "with_picks"]
