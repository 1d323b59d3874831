"""A value that excludes something — "Finish the orders table migration without downtime",
"… with no data loss", "不停机完成迁移" — kept word for word while another clause accepts that very
thing: "Downtime is acceptable for this migration after all.", "Some data loss is fine.",
"允许短暂停机。".

No cancelling word stands near the value and the clause names only one of its words, so the
negation rules (which need half the subject words) passed it. Read here: the excluded thing
("downtime", "data loss", "停机") in a clause outside the value's own sentences, with an
acceptance word ("acceptable", "is fine", "ok", "allowed", "tolerable", "可以接受", "允许",
"没关系") and no denial ("not acceptable", "no downtime is allowed", "不允许").
"""

from __future__ import annotations

import re
from functools import lru_cache

from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_steps import DENIAL

_EXCLUDES = re.compile(r"(?<![a-z])(?:without|with no|with zero|no)\s+(?:any\s+)?(?P<x>[a-z][a-z-]+(?:\s+[a-z][a-z-]+)?)|"
                       r"不(?P<zh>停机|中断|丢失数据|丢数据|宕机|停服)")
_ACCEPTS = re.compile(r"(?<![a-z])(?:acceptable|is fine|are fine|is ok|is okay|ok|okay|allowed|permitted|tolerable|"
                      r"tolerated|can be tolerated|expected|accepted|no problem|not a problem)(?![a-z])|"
                      r"可以接受|可接受|允许|没关系|没问题|无妨|不要紧")
_STOP_X = frozenset("more longer other the a an one".split())


@lru_cache(maxsize=4096)
def excluded_of(value: str) -> str | None:
    """What the value excludes ("downtime", "data loss", "停机"), or None."""
    m = _EXCLUDES.search(norm_phrase(value))
    if m is None:
        return None
    if m.group("zh"):
        return m.group("zh")
    x = m.group("x").split()
    if x[0] in _STOP_X:
        return None
    return " ".join(x)


def accepted_elsewhere(said: Said, value: str) -> Hits | None:
    """A clause elsewhere that accepts what the value excludes (see the module's docstring)."""
    x = excluded_of(value)
    if x is None or not said.has(x.split()[0]):
        return None
    v = norm_phrase(value)
    own = set(said.holding(v))
    if not own:
        return None
    stem = x.split()[0] if len(x.split()) == 1 else x
    for i, _n in said.holding(stem).items():
        if i in own:
            continue
        s = said.sentences[i]
        for c in said.clauses(s) or [s]:
            if stem not in c.text:
                continue
            ok = _ACCEPTS.search(c.text)
            if ok and not DENIAL.search(c.text.replace("not a problem", "").replace("no problem", "")):
                return Hits([f"{stem} … {ok.group()}"], said.stripped(s))
    return None


__all__ = ["accepted_elsewhere", "excluded_of"]
