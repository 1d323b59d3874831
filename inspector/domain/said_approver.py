"""An acceptance met by the wrong actor: "The user must approve the database migration" kept word
for word, then "The agent approved the database migration." (verdict-six).

Until verdict-six the sentence was only ``subject_unjudged`` (``?``): the rules did not know who
the acceptance names. An acceptance (or a constraint) whose value says WHO must approve WHAT —
"The user must approve X", "X must be approved by the user", "X 必须由用户批准", "用户必须批准 X" —
is broken by a clause elsewhere that reports WHAT approved by someone else: "The agent approved
X", "X was approved by the assistant", "CI approved X", "I approved X myself", "X was
self-approved / approved automatically", "X 已由助手批准", "代理批准了 X". That is
``protected_negated`` (survival ``contradicted``): the approval the rule asks for did not happen
the way it says.

The same reading tells the faithful report apart: "The user approved X", "X was approved by the
user", "X 已由用户批准" is the acceptance met (``owner_approved``: no ``?`` for that sentence).
Not read as an approval: a denied or hedged clause ("nobody approved X", "whether the agent
approved it"), a plan or a rule ("the agent will / must approve", "asked the user to approve X"),
a passive with no actor ("X was approved": who approved it is not said — left to the subject rule,
which says ``?``), and a bare "Approved X." with no subject.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said
from inspector.domain.said_steps import denies
from inspector.domain.textnorm import CJK, norm

_VERB_EN = r"(?:approve|sign off on|sign off|accept|review and approve|okay|ok)"
_RULE_EN = (re.compile(r"^(?:the\s+)?(?P<who>[a-z][a-z' -]{0,30}?)\s+(?:must|has to|needs to|should|is required to)\s+"
                       + _VERB_EN + r"\s+(?P<what>.{3,})$"),
            re.compile(r"^(?P<what>.{3,}?)\s+(?:must|has to|needs to|should|is required to)\s+be\s+(?:approved|"
                       r"signed off|accepted|okayed)\s+by\s+(?:the\s+)?(?P<who>[a-z][a-z' -]{0,30})$"))
_RULE_ZH = (re.compile(r"^(?P<what>.{2,}?)(?:必须|需要|需|须|要)(?:经)?由(?P<who>.{1,8}?)(?:批准|审批|同意|签字|确认)$"),
            re.compile(r"^(?P<who>.{1,8}?)(?:必须|需要|须|要)(?:批准|审批|同意)(?P<what>.{2,})$"))
_DONE_EN = re.compile(r"(?<![a-z-])(?:approved|signed off on|signed off|okayed|ok'd|okay'd|accepted|green-?lit|rubber-?stamped|"
                      r"greenlighted|gave (?:it |its |their |the )?(?:go-ahead|go ahead|sign-off|blessing|"
                      r"thumbs up|ok|okay)|gave .{1,60}? (?:the|its) (?:green light|go-ahead|thumbs up|sign-off))"
                      r"(?![a-z])")
# "LGTM from the bot on X", "sign-off from CI for X": the actor after "from".
_FROM = re.compile(r"(?<![a-z])(?:lgtm|sign-off|go-ahead|green light|thumbs up|blessing|approval)\s+(?:was\s+)?(?:given\s+)?"
                   r"from\s+(?:the\s+)?(?P<who>[a-z][a-z0-9'-]*)|"
                   # "sign-off on X came from CI", "X got the bot's sign-off"
                   r"(?<![a-z])(?:lgtm|sign-off|go-ahead|approval|green light|thumbs up|blessing)\b[^.;]{0,60}?\b"
                   r"(?:came|was given|was granted)\s+(?:from|by)\s+(?:the\s+)?(?P<who2>[a-z][a-z0-9'-]*)|"
                   r"(?<![a-z])(?:got|received|obtained|with|had|has|on)\s+(?:the\s+)?(?P<who3>[a-z][a-z0-9-]*)'s\s+"
                   r"(?:sign-off|go-ahead|approval|blessing|ok|okay|green light|thumbs up|lgtm|say-so)(?![a-z])")
# "The bot merged X without review": X done with no approval at all (verdict-eight).
_WITHOUT = re.compile(r"(?<![a-z])(?:without|with no|with zero|skipping)\s+(?:any\s+|a\s+|an\s+|the\s+)?(?:[a-z]+'s\s+)?(?:review|approval|sign-off|"
                      r"go-ahead|consent|lgtm)(?![a-z])|未经(?:任何)?(?:审批|批准|审核|同意|确认)|没有经过(?:审批|批准|审核)")
_DONE_ACT = re.compile(r"(?<![a-z])[a-z]+ed(?![a-z])|(?<![a-z])(?:ran|went|got|made|put|did|shipped|rolled)(?![a-z])|了|已")
_SELF = re.compile(r"(?<![a-z])(?:self-approved|auto-approved|autoapproved|approved automatically|automatically "
                   r"approved|approved (?:it |this |that )?(?:myself|ourselves|itself|himself|herself))(?![a-z])|"
                   r"自动批准|自行批准|自己批准")
_BY = re.compile(r"^\s*(?:[a-z]+\s+)?by\s+(?:the\s+)?(?P<who>[a-z][a-z0-9' -]{0,30}?)(?=\s+(?:after|before|on|at|in|"
                 r"during|when|once|because|for|since|as|with)\b|[ .;,]*$)")
_PLAN = re.compile(r"(?<![a-z])(?:will|must|should|needs? to|has to|have to|to be|going to|wait|waits|waiting|awaits|awaiting|"
                   r"asked|ask|asks|requested|request|pending|until|before)(?![a-z])|必须|需要|须|等待|待|请|将")
_CUT = re.compile(r"[;；:：,，。.!?！？\n]|(?<![a-z])(?:but|and then|whereas)(?![a-z])")
_LEAD = re.compile(r"^(?:also|then|now|so|and|later|finally|meanwhile|has|had|have|already|just|)\s*")
_ARTICLES = re.compile(r"(?<![a-z])(?:the|a|an|this|that|our|its|their)\s+")
_ZH_DONE = re.compile(r"(?:已经|已)?由(?P<who>[^，。；：,;:]{1,8}?)(?:批准|审批通过|同意|签字确认|签字|签署|确认|放行)|"
                      r"(?P<who2>[^，。；：,;:由]{1,8}?)(?:已经|已)?(?:批准|同意|签字确认|签字|签署|放行|确认)了")
# "数据库迁移已确认": what is approved, by nobody named (verdict-eight: a "?", never a "✓").
_ZH_BARE = re.compile(r"(?:已经|已|被)(?:批准|审批通过|同意|签字确认|确认|放行|通过审批)|(?:批准|确认|放行)了")
_CUE_EN = re.compile(r"approv|sign|accept|okay|ok'd|green|go-ahead|go ahead|lgtm|thumbs up|blessing|stamp|without review|"
                     r"without consent|no review|say-so")
_CUE_ZH = re.compile(r"批准|同意|签字|签署|确认|放行|未经")
_NOBODY = re.compile(r"(?<![a-z])(?:nobody|no one|none|neither|nor)(?![a-z])")
_ZH_DENY = re.compile(r"没有|没|未|不|无人|是否|如果")


@dataclass(frozen=True, slots=True)
class Approver:
    who: str  # who the rule says must approve ("user", "用户")
    what: tuple[str, ...]  # what must be approved: its content words, or the Chinese phrase


@dataclass(frozen=True, slots=True)
class OtherApprover:
    words: tuple[str, ...]
    sentence: str


@lru_cache(maxsize=4096)
def approver_of(value: str) -> Approver | None:
    """Who must approve what, when the value says so; None for any other value."""
    v = norm(value).rstrip(".。 ")
    if CJK.search(v):
        for pat in _RULE_ZH:
            m = pat.match(v)
            if m:
                return Approver(m.group("who").strip(), (m.group("what").strip(),))
        return None
    for pat in _RULE_EN:
        m = pat.match(v)
        if m:
            who = m.group("who").strip().split()[-1].removesuffix("'s")
            words = tuple(w for w in _ARTICLES.sub(" ", m.group("what") + " ").split() if len(w) > 2)
            return Approver(who, words) if words and who else None
    return None


def _names_what(clause: str, a: Approver) -> bool:
    if CJK.search(a.what[0]):
        return a.what[0] in clause or (len(a.what[0]) >= 4 and a.what[0][-2:] in clause)
    return all(re.search(r"(?<![a-z])" + re.escape(w[:6]), clause) for w in a.what)


def _approvals(said: Said, a: Approver) -> list[tuple[str, str, str]]:
    """(who, the approval's words, the sentence) of each clause reporting what the rule names
    approved by someone named (self-approval: "itself")."""
    out: list[tuple[str, str, str]] = []
    zh = CJK.search(a.what[0]) is not None
    for i, s in enumerate(said.sentences):
        text = s.text
        if not (_CUE_ZH if zh else _CUE_EN).search(text):
            continue
        for clause in _CUT.split(text):
            if not _names_what(clause, a) and not _it_without(clause, text, said.sentences[i - 1].text if i else "", a):
                continue
            if zh:
                bare = _WITHOUT.search(clause)
                if bare is not None and "了" in clause[bare.end():] and not _PLAN.search(clause[:bare.start()]) \
                        and not _ZH_DENY.search(clause[:bare.start()]):
                    out.append(("nobody", bare.group(), said.stripped(s)))
                    continue
                m = _ZH_DONE.search(clause)
                if m is None or _ZH_DENY.search(clause[:m.start()] + (m.group("who") or m.group("who2") or "")) \
                        or _PLAN.search(clause[:m.start()]):
                    continue
                who = (m.group("who") or m.group("who2") or "").strip()
                if _names_what(who, a):
                    continue  # "数据库迁移确认了": no actor named (``approved_unsaid``)
                if "自动" in clause or "自行" in clause:
                    who = "itself"
                out.append((who, m.group().strip(), said.stripped(s)))
                continue
            bare = _WITHOUT.search(clause)
            if bare is not None and not _PLAN.search(clause[:bare.start()]) and not denies(clause[:bare.start()]) \
                    and _DONE_ACT.search(clause[:bare.start()]):
                out.append(("nobody", bare.group(), said.stripped(s)))
                continue
            selfish = _SELF.search(clause)
            frm = None if selfish else _FROM.search(clause)
            if frm is not None and not denies(clause) and not _NOBODY.search(clause) \
                    and not _PLAN.search(clause[:frm.start()]):
                out.append((frm.group("who") or frm.group("who2") or frm.group("who3"), frm.group(), said.stripped(s)))
                continue
            m = selfish or _DONE_EN.search(clause)
            if m is None or denies(clause) or _NOBODY.search(clause) or _PLAN.search(clause[:m.start()]):
                continue
            if selfish:
                out.append(("itself", m.group(), said.stripped(s)))
                continue
            by = _BY.match(clause[m.end():])
            if by:
                out.append((by.group("who").strip(), f"{m.group()} by {by.group('who').strip()}", said.stripped(s)))
                continue
            before = clause[:m.start()].strip()
            if _names_what(before, a):
                continue  # "X was approved": a passive with no actor says nothing about who
            who = _LEAD.sub("", " ".join(re.findall(r"[a-z][a-z'-]*", before)[-3:])).strip()
            if re.search(r"(?<![a-z])(?:myself|ourselves|itself)(?![a-z])", clause[m.end():]):
                who = "itself"
            if who:
                out.append((who, f"{who} {m.group()}", said.stripped(s)))
    return out


_IT = re.compile(r"(?<![a-z])(?:it|this|that|them)(?![a-z])|它|此")


def _it_without(clause: str, sentence: str, before: str, a: Approver) -> bool:
    """"The bot merged it without review." after a sentence (or clause) naming what the rule names:
    the pronoun stands for it (verdict-eight; only for the no-approval shape)."""
    if not _WITHOUT.search(clause) or not _IT.search(clause):
        return False
    return _names_what(sentence[:sentence.find(clause)] if clause in sentence else "", a) or _names_what(before, a)


def _is(who: str, owner: str) -> bool:
    if CJK.search(owner):
        return who.endswith(owner) or who == owner
    words = who.replace("'s", " 's").split()
    return bool(words) and words[-1] in (owner, owner + "s")


def approved_by_other(said: Said, value: str) -> OtherApprover | None:
    """The first clause reporting what the rule names approved by another actor than its own."""
    a = approver_of(value)
    if a is None:
        return None
    for who, words, sentence in _approvals(said, a):
        if not _is(who, a.who):
            return OtherApprover((words,), sentence)
    return None


def owner_approved(said: Said, value: str) -> frozenset[str]:
    """The sentences reporting the approval made by the actor the rule names (the rule met)."""
    a = approver_of(value)
    if a is None:
        return frozenset()
    return frozenset(sentence for who, _w, sentence in _approvals(said, a) if _is(who, a.who))


def approved_unsaid(said: Said, value: str) -> OtherApprover | None:
    """A Chinese clause reporting what the rule names approved with no actor at all ("数据库迁移已
    确认"): who approved it is not said — a "?" (the English passive is the subject rule's)."""
    a = approver_of(value)
    if a is None or not CJK.search(a.what[0]) or not _CUE_ZH.search(said.text):
        return None
    for s in said.sentences:
        if a.what[0] not in s.text or value in s.text:
            continue
        for clause in _CUT.split(s.text):
            m = _ZH_BARE.search(clause)
            if m is None or not _names_what(clause[:m.start()], a) or "由" in clause or \
                    _ZH_DENY.search(clause[:m.start()]) or _PLAN.search(clause[:m.start()]):
                continue
            return OtherApprover((m.group(),), said.stripped(s))
    return None


__all__ = ["Approver", "OtherApprover", "approved_by_other", "approved_unsaid", "approver_of", "owner_approved"]
