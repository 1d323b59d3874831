"""One drift finding: a code, the record it is about, a sentence a person understands, and the
words and summary sentence that triggered it. Its own module so the rules around drift
(``drift_headline``: what was not judged) and drift itself share it without importing each
other.
"""

from __future__ import annotations

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
