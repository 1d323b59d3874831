"""Facts in what the user typed: goal, constraints, decisions and references.

Only the user's own words propose these (never tool or model output: DESIGN, untrusted
instruction), and not the lines the user quoted or pasted back (own_words). Every proposal is a ``pending`` record until a person confirms it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from inspector.domain.back_refs import Before, endorsement, names_nothing, resolve
from inspector.domain.facts_condition import with_condition
from inspector.domain.facts_deadline import deadline_rule
from inspector.domain.later_requests import is_request
from inspector.domain.logevents import LogEvent
from inspector.domain.textnorm import norm
from inspector.domain.wordlists import raw_patterns, wordlist

# A first request is a goal whole up to GOAL_CHARS; a longer one keeps its head and its last sentence (where
# the ask usually is), joined by "…". Cut at 280 with nothing marked, the real 7662d755ef9f goal ended "…how
# this happend? again in" (the path it named cut off), and a long pasted context followed by "Now say hello."
# (the Anthropic compaction recording) lost the only instruction it held.
GOAL_CHARS = 600
GOAL_TAIL_CHARS = 200
SENTENCE_MAX = 300
# Echoes of local commands and harness notes that arrive as user lines but are not requests.
_NOT_A_REQUEST = re.compile(r"^\s*(?:<command-|<local-command-|<system-reminder|caveat:|\[request interrupted|"
                            r"this session is being continued)", re.IGNORECASE)
_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
# A "." / "!" / "?" ends a sentence only before white space or the end (as textnorm's sentences):
# "never touch docs/color.md" and "v1.2.3" are one sentence (before: "docs/color." + "md").
_SENTENCE = re.compile(r"(?:[^.!?。！？\n]|[.!?]+(?=[^\s.!?。！？]))+(?:[.!?。！？]+|\n|$)")
_OPTION = re.compile(r"^\s*(?:[-*]\s*)?(?:\*\*)?(?:option\s+)?(?P<label>[1-9]|[A-Da-d]|方案\s*[一二三四1-9A-D]|选项\s*[一二三四1-9A-D])"
                     r"(?:[.):：、]|\*\*[.):：]?)\s*(?:\*\*)?(?P<text>[^；;。？?\n]+)", re.IGNORECASE | re.MULTILINE)
_INLINE_OPTION = re.compile(r"(?:方案|选项)\s*(?P<label>[一二三四A-D1-9])\s*[：:]\s*(?P<text>[^；;。？?\n]+)")
_INLINE_OPTION_EN = re.compile(r"\boption\s+(?P<label>[A-D1-9])\b\s*(?:\((?P<paren>[^)]{1,80})\)|[:：]\s*(?P<text>[^,;.?\n]{1,120}))",
                               re.IGNORECASE)
_ORDINAL = {"one": "1", "first": "1", "two": "2", "second": "2", "three": "3", "third": "3", "four": "4",
            "fourth": "4", "一": "1", "二": "2", "三": "3", "四": "4", "a": "1", "b": "2", "c": "3", "d": "4"}

# Not in a URL: control characters and the invisible and bidi ones. An OSC 8 link in what the user pasted
# ("\x1b]8;;https://x.example/\x1b\\click here…") was proposed as the reference "https://x.example/␛\click":
# the escape bytes and the link's first word in a record to confirm as the URL, and in its key (newuser-18).
NOT_IN_URL = r"\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff"
REFERENCE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("url", re.compile(rf"https?://[^\s<>\"'`)\]{NOT_IN_URL}]+[^\s<>\"'`)\].,;:!?{NOT_IN_URL}]")),
    ("commit", re.compile(r"(?<![\w/.-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w/-])")),
    ("issue", re.compile(r"(?<![\w/])(?:[A-Z][A-Z0-9]{1,9}-\d{1,6}|(?:PR|pr|issue|Issue)\s?#?\d{1,6}|#\d{2,6})(?![\w])")),
    ("branch", re.compile(r"(?:\b[Bb]ranch\s*[:=]?\s+|分支\s*[:：]?\s*)(?:[`'\"](?P<quoted>[A-Za-z0-9][\w./-]*)[`'\"]|"
                          r"(?P<name>[A-Za-z0-9][\w.-]*[/_.-][\w./-]*[\w]))")),
    ("path", re.compile(r"(?<![\w:/.~-])(?:~|[A-Za-z]:\\|/)(?:[\w.@+-]+[/\\])+[\w.@+-]+")),
)


@dataclass(slots=True)
class Proposal:
    kind: str
    value: str
    seq: int
    rule: str
    rationale: str | None = None
    alternatives: list[str] = field(default_factory=list)
    detail: dict[str, object] = field(default_factory=dict)
    cites: tuple[int, ...] = ()  # the other events it cites (where a rule it points back to was said)


def request_text(e: LogEvent) -> str | None:
    """The user's words of an event, or None when it is not a request (echo, caveat…)."""
    if not e.from_user or not e.content or _NOT_A_REQUEST.match(e.content):
        return None
    return e.content


def first_chunk(text: str) -> str:
    paras = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    after = _after_paste(paras)
    if after is not None:
        return after
    para = paras[0] if paras else text.strip()
    from inspector.domain.facts_ask import ask_before_log  # it reads facts_pasted, which reads this module

    asked = ask_before_log(para)  # a pasted log is not the ask: the user's words and its telling line
    para = " ".join((asked or para).split())
    if len(para) <= GOAL_CHARS:
        return para
    last = user_sentences(para)[-1:]
    tail = f" … {last[0]}" if last and len(last[0]) <= GOAL_TAIL_CHARS and last[0] != para else " …"
    room = GOAL_CHARS - len(tail)
    cut = para[:room]
    space = cut.rfind(" ")
    return (cut[:space] if space > room // 2 else cut) + tail


# The label that opens a pasted block: "Remember this context: …", "Here is the log: …".
_PASTE_LABEL = re.compile(r"[^\n:：]{1,80}[:：]\s")
# An instruction that points back at the paste ("can you fix this?") names nothing without it.
_POINTS_BACK = re.compile(r"\b(?:this|that|these|those|it|them|above)\b|这|那|上面|以上", re.IGNORECASE)


def _after_paste(paras: list[str]) -> str | None:
    """The request after a pasted block, when the first paragraph is one — longer than GOAL_CHARS
    and opened by a label — and the last paragraph is a short request of its own: the goal is the
    request, not the paste. The Anthropic compaction recording (verdict-real-two): "Remember this
    context: The quick brown fox …" × 5,000, then "Now say hello."; the goal was the first 600
    characters of foxes, and drift called the faithful compaction (“followed by the instruction
    "Now say hello."”) ``protected_missing``. A paste with no label, or an instruction that points
    back at it ("Traceback: … / can you fix this?"), keeps the head: "this" names the paste."""
    if len(paras) < 2 or len(paras[0]) <= GOAL_CHARS or not _PASTE_LABEL.match(paras[0]):
        return None
    last = " ".join(paras[-1].split())
    if len(last) > GOAL_TAIL_CHARS or _POINTS_BACK.search(last) or not is_request(last):
        return None
    return last


def user_sentences(text: str) -> list[str]:
    """The sentences of what the user typed, fenced code left out."""
    body = _FENCE.sub(" ", text)
    out = []
    for m in _SENTENCE.finditer(body):
        s = " ".join(m.group(0).split()).strip()
        if s:
            out.append(s)
    return out


_SPEAKER = re.compile(r"(?:^|\W)(?:i|we|it|they|he|she|that|this|which|who|things?)\s*$")
_IMPERATIVE_LEAD = re.compile(r"^(?:(?:please|and|but|also|so|then|just|pls|ok|okay)[\s,]+)*$")


# Words that look like a prohibition or a must but are not one addressed to the agent.
_NOT_A_RULE = re.compile(
    r"^(?:don'?t|do not) (?:know|think|understand|see|get|remember|care|mind|worry)\b|\bnever mind\b|"
    r"\bmust (?:be|have been|have)\b|^only \d|不要紧|必须的|只能说|只能怪|只能算|只能表明|别人|"
    r"[特分识区级类派告辨鉴差个]别")


def constraint_word(sentence: str) -> str | None:
    """The prohibition or must in a sentence, if it is addressed to the agent: "never X",
    "don't X", "不得 X" anywhere, but not "I don't know"; "only"/"make sure" only where
    the sentence opens with it ("Only read the logs", "Please make sure…")."""
    # The normal form every verdict reads: a typographic apostrophe ("Don’t touch prod", as
    # phones and pasted text write it) is the plain one, so the prohibition is seen.
    s = norm(sentence)
    lead = re.sub(r"^(?:(?:please|and|but|also|so|then|just|ok|okay)[\s,]+)*", "", s)
    for hit in wordlist("constraint").hits(s):
        near = s[max(0, hit.start - 2):hit.end + 6]
        addressed = "want you to" in hit.word  # "I don't want you to change the schema"
        if (_SPEAKER.search(s[:hit.start]) and not addressed) or _NOT_A_RULE.search(
                lead if hit.start == len(s) - len(lead) else near):
            continue
        return hit.word
    for hit in wordlist("constraint_imperative").hits(s):
        if _IMPERATIVE_LEAD.match(s[:hit.start]) and not _NOT_A_RULE.search(s[hit.start:hit.end + 8]):
            return hit.word
    return None


def own_text(e: LogEvent, own: Mapping[int, str] | None) -> str | None:
    """The user's own words of an event: ``request_text`` less the lines it quoted or pasted back
    (``own``, by seq: facts_goals.GoalReading.own, the one reading of what is quoted)."""
    text = request_text(e)
    return own.get(e.seq, text) if own and text is not None else text


def constraints(events: list[LogEvent], own: Mapping[int, str] | None = None,
                before: Mapping[int, Before] | None = None) -> list[Proposal]:
    """The user's rules, each sentence with a prohibition or a must; one that only points back
    ("keep that rule") is the rule it points to (``before``, by seq: facts_goals.GoalReading.before),
    or none (back_refs.py)."""
    out: list[Proposal] = []
    for e in events:
        text = own_text(e, own)
        if not text:
            continue
        every = user_sentences(text)
        for s in _rule_sentences(text):
            word = constraint_word(s) or endorsement(s)
            if word is not None and (joined := with_condition(every, s, SENTENCE_MAX)) != s:
                if joined is not None:  # "If not, never deploy.": with the sentence it depends on
                    out.append(Proposal("constraint", joined.rstrip("。.!！ "), e.seq, f"constraint.word:{word}"))
                continue
            if word is None:
                due = deadline_rule(s)  # "Ship the fix by the end of the month." (facts_deadline.py)
                if due is not None:
                    out.append(Proposal("constraint", s.rstrip("。.!！ "), e.seq, f"constraint.deadline:{due}"))
                continue
            if not names_nothing(s, word):
                out.append(Proposal("constraint", s.rstrip("。.!！ "), e.seq, f"constraint.word:{word}"))
                continue
            resolved = resolve(before.get(e.seq) if before else None, rules_in)
            if resolved is not None:
                value, said_in = resolved
                out.append(Proposal("constraint", value, e.seq, f"constraint.back_reference:{word}", rationale=s,
                                    cites=tuple(seq for seq in said_in if seq != e.seq)))
    return out


def _rule_sentences(text: str) -> list[str]:
    return [s for s in user_sentences(text) if len(s) <= SENTENCE_MAX and not s.endswith(("?", "？")) and len(s) >= 4]


def rules_in(text: str) -> list[str]:
    """The sentences of a text that state a rule of their own (what a back-reference may point to)."""
    out = []
    for s in _rule_sentences(text):
        word = constraint_word(s)
        if word is not None and not names_nothing(s, word):
            out.append(s)
    return out


# What _INLINE_OPTION and _INLINE_OPTION_EN cannot match without (the same letters under the same
# flags): one search for them rules out the longer patterns on most assistant messages.
_OPTION_WORD = re.compile(r"option", re.IGNORECASE)


def options_labelled(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """The options an assistant's message lists, by label ("1", "2"…: "B" and "方案二" are "2"),
    and each label as the message wrote it ("B", "方案二"); none unless it lists two or more."""
    found: dict[str, str] = {}
    written: dict[str, str] = {}
    for rx in (_INLINE_OPTION if "方案" in text or "选项" in text else None,
               _INLINE_OPTION_EN if _OPTION_WORD.search(text) else None, _OPTION):
        if rx is None:
            continue
        for m in rx.finditer(text):
            label = re.sub(r"^(?:方案|选项)\s*", "", m.group("label")).casefold()
            label = _ORDINAL.get(label, label)
            body = m.groupdict().get("paren") or m.group("text") or ""
            found.setdefault(label, " ".join(body.replace("**", "").split()).strip(" ：:")[:200])
            written.setdefault(label, " ".join(m.group("label").split()))
    return (found, written) if len(found) >= 2 else ({}, {})


# More labels listed right after the first pick: "Implement 1,2 and 3." (the real 995ebed6e4 transcript, line
# 153), "A & C", "方案一和三". Read as one pick, the first became the decision and the others its *rejected*
# alternatives — the opposite of what the person said. A letter must end the list ("a and b", not "B and a
# small refactor"); a number is a label wherever the list goes on ("1 and 2 first").
_MORE_PICKS = re.compile(r"\s*(?:,|、|\band\b|&|\+|/|和|与|及)\s*(?:(?:option|approach|#|方案|选项)\s*)?"
                         r"(?:(?P<digit>[1-9])(?!\s*(?:of|more|thing|question|sec|second|minute|min|hour))\b"
                         r"|(?P<letter>[a-d])(?=\s*(?:$|[,.;!、]|\band\b|&))|(?P<cjk>[一二三四]))")


def picks(text: str) -> list[str]:
    """The labels a short reply picks, in order (none for a question or a long message)."""
    t = " ".join(text.casefold().split())
    if len(t) > 240 or t.endswith(("?", "？")):
        return []
    for rx in raw_patterns("choice"):
        m = rx.search(t)
        if m:
            first = m.group("pick").casefold()
            labels, at = [_ORDINAL.get(first, first)], m.end()
            while (more := _MORE_PICKS.match(t, at)) is not None:
                label = more.group("digit") or more.group("letter") or more.group("cjk")
                label = _ORDINAL.get(label, label)
                if label not in labels:
                    labels.append(label)
                at = more.end()
            return labels
    return []


def references(events: list[LogEvent], own: Mapping[int, str] | None = None) -> list[Proposal]:
    out: list[Proposal] = []
    for e in events:
        text = own_text(e, own)
        if not text:
            continue
        for name, rx in REFERENCE_PATTERNS:
            for m in rx.finditer(text):
                groups = m.groupdict()
                value = groups.get("quoted") or groups.get("name") or m.group(0)
                out.append(Proposal("reference", value.rstrip(".,;:"), e.seq, f"reference.{name}"))
    return out
