"""One drift finding: a code, the record it is about, a sentence a person understands, and the
words and summary sentence that triggered it. Its own module so the rules around drift
(``drift_headline``: what was not judged) and drift itself share it without importing each
other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True, init=False)
class Finding:
    code: str
    key: str | None
    message: str
    severity: str = "finding"  # or "warning"
    words: tuple[str, ...] = ()  # the words of the summary (or its sources) that triggered it
    where: str = ""  # the summary's sentence that holds them (normalised), when there is one

    def __init__(self, code: str, key: str | None, message: str, severity: str = "finding",
                 words: tuple[str, ...] = (), where: str = "") -> None:
        # The generated __init__ of a frozen dataclass sets each field through
        # object.__setattr__; the slots' own setters do the same in half the time, and the
        # Drift tab makes ~25 findings per generation over 1,000 generations.
        _SET_CODE(self, code)
        _SET_KEY(self, key)
        _SET_MESSAGE(self, message)
        _SET_SEVERITY(self, severity)
        _SET_WORDS(self, words)
        _SET_WHERE(self, where)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "key": self.key, "message": self.message, "severity": self.severity,
                "words": list(self.words), "where": self.where or None}


_SET_CODE, _SET_KEY, _SET_MESSAGE, _SET_SEVERITY, _SET_WORDS, _SET_WHERE = (
    Finding.__dict__[name].__set__ for name in ("code", "key", "message", "severity", "words", "where"))


__all__ = ["Finding"]


_REPEATS = re.compile(r"^(generation \d+) repeats the (.+?) \((?P<key>[^()]*)\) but ")


def not_repeated(findings: list[Finding]) -> list[Finding]:
    """A departure's sentence says the summary "repeats the constraint … but elsewhere says its
    opposite" — true when it kept the value word for word; beside a ``protected_missing`` of the same
    key the two read as a contradiction ("is not in generation 1's text" / "generation 1 repeats it",
    newuser-19). There the departure says "does not repeat … and": the verdict is unchanged."""
    missing = {f.key for f in findings if f.code == "protected_missing" and f.key}
    if not missing:
        return findings
    out = []
    for f in findings:
        m = _REPEATS.match(f.message) if f.key in missing and f.code != "protected_missing" else None
        if m is not None and m["key"] == f.key:
            f = Finding(f.code, f.key, f"{m[1]} does not repeat the {m[2]} ({f.key}) and {f.message[m.end():]}",
                        f.severity, f.words, f.where)
        out.append(f)
    return out
