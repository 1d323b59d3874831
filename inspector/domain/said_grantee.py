"""A permission given to someone else: the grant's words kept, its subject swapped or joined.

"Alice may approve merges" stands verbatim, and "Bob may approve merges too." — or
"李娜也可以批准合并" beside "张伟可以批准合并" — grants the same act to another person. The scope
rules (``said_scope``, ``said_scope_wide``) read what a grant covers, never who holds it, so
drift said "no drift" (verdict-four, docs/reviews/verdict-four.md).

A permission whose value is "WHO may/can/is allowed to WHAT" ("WHO 可以/允许/能 WHAT") is widened
by a clause elsewhere that grants the same "may WHAT" to another subject: the words before the
grant (up to four, in its clause) are not the value's subject and deny nothing ("Nobody may",
"Only Alice may", "Bob may not", "没有人可以", "只有张伟可以" restate or narrow it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said
from inspector.domain.textnorm import CJK, norm

_EN = re.compile(r"^(?P<who>[^,;:]{1,40}?)\s+(?P<grant>(?:may|can|is allowed to|are allowed to|is permitted to|"
                 r"are permitted to)\s+(?P<what>.{3,}))$")
_ZH = re.compile(r"^(?P<who>[^，,；;：:]{1,12}?)(?P<grant>(?:可以|允许|能够|可)(?P<what>.{2,}))$")
_DENY = re.compile(r"\b(?:no|nobody|no one|none|noone|never|not|only|nor|neither|except)\b|只有|只能|仅|没有|不|无人|谁也")
_CUT = re.compile(r"[.;:!?。！？；：，,\n]|\s[-–—]\s|\bbut\b|\band\b|但|而")
_AGENT = frozenset({"you", "we", "i", "the agent", "agent", "the assistant", "the bot", "you can", "你", "您", "我们",
                    "我", "你们"})
_ONLY = re.compile(r"^(?:only|just|solely)\s+|^(?:只有|仅有|唯有|只|仅)")
_TOO = re.compile(r"^\s*(?:also|too|as well|now|now also|also now)\s+|也|还|现在|同样")


@dataclass(frozen=True, slots=True)
class Grant:
    who: str
    grant: str  # "may approve merges", normalised
    what: str = ""  # "approve merges": granted by any modal ("Bob can approve merges as well")


@dataclass(frozen=True, slots=True)
class Widened:
    words: tuple[str, ...]
    sentence: str


@lru_cache(maxsize=4096)
def grant_of(value: str) -> Grant | None:
    """The subject and the grant of a permission value, or None when it names no subject."""
    v = norm(value).rstrip(".。 ")
    m = _EN.match(v) or _ZH.match(v)
    if m is None:
        return None
    # "Only the user may deploy", "只有用户可以部署": the grant is the user's alone (verdict-nine)
    who = _ONLY.sub("", m.group("who").strip()).strip()
    if not who or who.startswith(("permission", "权限")) or _DENY.search(who) or who in _AGENT:
        return None  # "You may read …": the agent is the subject whatever the summary calls it
    return Grant(who, m.group("grant").strip(), m.group("what").strip())


def grantee_added(said: Said, value: str) -> Widened | None:
    """The clause that grants the permission's act to another subject, or None."""
    g = grant_of(value)
    if g is None:
        return None
    flat = said.flat()
    if g.what not in flat:
        return grantee_labelled(said, value)
    for m in _grants(g.what).finditer(flat):
        pos = m.start()
        before = flat[max(0, pos - 80):pos]
        cut = max((m.end() for m in _CUT.finditer(before)), default=0)
        lead = before[cut:].strip()
        subject = _TOO.sub(" ", lead).strip() if lead else ""
        words = subject.split()[-4:] if " " in subject else [subject]
        subject = " ".join(words).strip()
        if subject and subject != g.who and not subject.endswith(g.who) and not _DENY.search(lead):
            s = said.sentence_at(pos)
            return Widened((f"{subject} {m.group().strip()}",), s.text if s is not None else flat[pos:pos + 80])
    return grantee_labelled(said, value)


def grantee_labelled(said: Said, value: str) -> Widened | None:
    """A label naming the grant's act that gives it another subject: "Merge approver: Bob." beside
    "Alice may approve merges" (verdict-four's e-d22: no grant verb, so ``grantee_added`` missed it)."""
    g = grant_of(value)
    words = g.what.split() if g is not None and not CJK.search(g.what) else []
    if len(words) < 2 or (":" not in said.text and "：" not in said.text):
        return None
    stems = [w[:5] if len(w) > 5 else w.rstrip("s") for w in words]
    for m in _LABELLED.finditer(said.text):
        label, name = m.group(1).strip(), m.group(2).strip()
        if all(st in label for st in stems) and name and g is not None and g.who not in name \
                and not _DENY.search(name) and name not in _AGENT:
            return Widened((f"{label}: {name}",), m.group(0).strip())
    return None


_LABELLED = re.compile(r"([^\n:：.;]{1,40})[:：]\s*([^\n.;,，。]{1,30})")


@lru_cache(maxsize=4096)
def _grants(what: str) -> re.Pattern[str]:
    """The act granted by any modal: "may/can/is allowed to approve merges", "可以/允许/能批准合并"."""
    if CJK.search(what):
        return re.compile(r"(?:可以|允许|能够|可|能)" + re.escape(what))
    return re.compile(r"(?<![a-z])(?:may|can|is allowed to|are allowed to|is permitted to|are permitted to)\s+"
                      + re.escape(what) + r"(?![a-z])")


@lru_cache(maxsize=4096)
def grant_any(value: str) -> tuple[str, str] | None:
    """(who, what) of a permission "WHO may WHAT", the agent ("You may read …") included."""
    v = norm(value).rstrip(".。 ")
    m = _EN.match(v) or _ZH.match(v)
    if m is None:
        return None
    who = _ONLY.sub("", m.group("who").strip()).strip()
    if not who or _DENY.search(who) or who.startswith(("permission", "权限")):
        return None
    return who, m.group("what").strip()


def grant_taken(said: Said, value: str) -> Widened | None:
    """A clause that gives the permission's act to another party *only* ("Only the data team may
    read the staging database" beside "You may read the staging database", "只有运维可以部署到生产环境"
    beside "张伟可以部署到生产环境"): the grantee the value names loses it (verdict-ten)."""
    g = grant_any(value)
    if g is None:
        return None
    who, what = g
    flat = said.flat()
    if what not in flat:
        return None
    agent = who in _AGENT
    for m in _only_grants(what).finditer(flat):
        party = m.group("party").strip()
        if party == who or party.endswith(" " + who) or (agent and party in _AGENT) or _DENY.search(party):
            continue
        s = said.sentence_at(m.start())
        return Widened((m.group().strip(),), said.stripped(s) if s is not None else m.group())
    return None


@lru_cache(maxsize=4096)
def _only_grants(what: str) -> re.Pattern[str]:
    if CJK.search(what):
        return re.compile(r"(?:只有|仅有|唯有|仅限|只)(?P<party>[^，,；;：:。]{1,12}?)(?:才)?(?:可以|允许|能够|能|可)"
                          + re.escape(what))
    return re.compile(r"(?<![a-z])(?:only|just|solely)\s+(?P<party>[^,;:.]{1,40}?)\s+(?:may|can|is allowed to|"
                      r"are allowed to|is permitted to|are permitted to)\s+" + re.escape(what) + r"(?![a-z])")


__all__ = ["Grant", "Widened", "grant_any", "grant_of", "grant_taken", "grantee_added", "grantee_labelled"]
