"""A version given another number elsewhere: "Target runtime: Python 3.12." beside the goal
"Migrate the billing service to Python 3.11".

The limit rules read amounts with units and dates; a version ("Python 3.11", "node 20.1",
"postgres 15.4") is neither, so a summary that kept the goal verbatim and named another version
for the same thing elsewhere was "no drift" (verdict-four). Whether "Python 3.12" is the target
moved, a test matrix or a note on what else was tried, the rules cannot tell — so a sentence
that names the value's thing with another dotted version, and neither the value's own version
nor an upgrade path ("from Python 3.9 to …"), is ``subject_unjudged``: ``?``, survival
``unknown``, a person must read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said
from inspector.domain.textnorm import norm

_VERSION = re.compile(r"(?<![\w.])([a-z][a-z0-9+#_-]{1,30})\s+v?(\d+(?:\.\d+)+)(?![\w]|\.\d)")
_NOT_A_NAME = frozenset("to at on in of by for from under over than and or is was be port version v the a an "
                        "up about around after before since until with".split())
_FROM = re.compile(r"(?<![a-z])(?:from|was|were|old|older|previous|previously|instead of|not|no longer|rather than)"
                   r"(?![a-z])[^.;:]{0,12}$")


@dataclass(frozen=True, slots=True)
class OtherVersion:
    words: tuple[str, ...]
    sentence: str


@lru_cache(maxsize=4096)
def versions_of(value: str) -> tuple[tuple[str, str], ...]:
    """(name, version) pairs the value states ("python", "3.11")."""
    return tuple((m.group(1), m.group(2)) for m in _VERSION.finditer(norm(value)) if m.group(1) not in _NOT_A_NAME)


def other_version(said: Said, value: str) -> OtherVersion | None:
    """The first sentence naming one of the value's things with another version, or None."""
    pairs = versions_of(value)
    if not pairs:
        return None
    for name, version in pairs:
        for s in said.sentences:
            t = s.text
            if name not in t:
                continue
            # the value's own version, or a release of it ("Python 3.11.9" for "3.11"; verdict-six)
            own = any(m.group(1) == name and (m.group(2) == version or m.group(2).startswith(version + "."))
                      for m in _VERSION.finditer(t))
            if own:
                continue  # the value's own version stands here: a restatement or an upgrade path
            for m in _VERSION.finditer(t):
                if m.group(1) == name and m.group(2) != version and not _FROM.search(t[:m.start()]):
                    return OtherVersion((m.group(), f"(the value says {name} {version})"), said.stripped(s))
    return None


__all__ = ["OtherVersion", "other_version", "versions_of"]
