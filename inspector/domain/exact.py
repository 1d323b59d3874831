"""Exact comparison of protected values: same keys, byte-identical UTF-8.

No trimming and no Unicode normalisation — but when two values differ only by
normalisation or white space, the explanation says so, because that is exactly the
difference a person cannot see on screen.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FieldDiff:
    key: str
    kind: str  # "missing" | "extra" | "changed"
    expected: str | None
    actual: str | None
    explanation: str

    def as_dict(self) -> dict[str, object]:
        return {"key": self.key, "kind": self.kind, "expected": self.expected, "actual": self.actual,
                "explanation": self.explanation}


def explain_difference(expected: str, actual: str) -> str:
    a, b = expected.encode("utf-8"), actual.encode("utf-8")
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    where = f"bytes differ from offset {at}: {a[at:at + 6].hex(' ') or '(end)'} vs {b[at:at + 6].hex(' ') or '(end)'}"
    if unicodedata.normalize("NFC", expected) == unicodedata.normalize("NFC", actual):
        return f"same text after Unicode normalisation but different bytes (e.g. é vs e◌́); {where}"
    if "".join(expected.split()) == "".join(actual.split()):
        return f"differs only in white space ({len(a)} vs {len(b)} bytes); {where}"
    if expected.casefold() == actual.casefold():
        return f"differs only in letter case; {where}"
    return where


def compare_exact(expected: dict[str, str], actual: dict[str, object]) -> list[FieldDiff]:
    diffs: list[FieldDiff] = []
    for key in sorted(expected.keys() | actual.keys()):
        want, got = expected.get(key), actual.get(key)
        if key not in actual:
            diffs.append(FieldDiff(key, "missing", want, None, "the candidate leaves this protected value out"))
        elif key not in expected:
            diffs.append(FieldDiff(key, "extra", None, str(got),
                                   "not an active goal, constraint, permission or acceptance of this session"))
        elif not isinstance(got, str):
            diffs.append(FieldDiff(key, "changed", want, repr(got), "the candidate's value is not text"))
        elif got.encode("utf-8") != (want or "").encode("utf-8"):
            diffs.append(FieldDiff(key, "changed", want, got, explain_difference(want or "", got)))
    return diffs
