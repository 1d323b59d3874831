"""Where in the targets a copy found by value comes from: a place to look, never the value.

A deletion request for one Gemini CLI shell result listed five other shell results as
"repeats a value of the targets": each ends with the same line, "Background PIDs: (none)",
long enough to count as a copy. A reviewer could not see why they were listed, or that
carrying the request out would remove them all. The values themselves are never printed
(``Coverage.values``), so a copy says which line of which target it repeats; a line many
events repeat is named in a warning before anything is removed.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field

BY_VALUE = "repeats a value of the targets"
SHARED_BY = 3  # a target's line repeated by this many other events is said in a warning


@dataclass(slots=True)
class Places:
    """The targets' texts: ``(target, is_content, text)``; content is where line numbers mean
    something (a call's arguments or other fields are said as fields)."""

    texts: list[tuple[str, bool, str]] = field(default_factory=list)
    repeated: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, target: str, content: str, fields: list[str]) -> None:
        self.texts.append((target, True, content))
        self.texts += [(target, False, t) for t in fields if t]

    def why(self, ident: str, content: str | None, values: list[str]) -> str:
        """What an event found by value repeats: "repeats line 7 of evt:7", or as before."""
        if not content:
            return BY_VALUE
        value = next((v for v in values if v in content or json.dumps(v, ensure_ascii=False)[1:-1] in content), None)
        if value is None:
            return BY_VALUE
        for target, is_content, text in self.texts:
            if value not in text:
                continue
            if is_content:
                place = f"{_lines_of(text, value)} of {target}"
                self.repeated[place].append(ident)
                return f"repeats {place}"
            return f"repeats a value of {target}'s fields (a call's input or another field)"
        return BY_VALUE

    def warnings(self) -> list[str]:
        """A line many other events repeat may be a tool's boilerplate rather than what must go."""
        out = []
        for place, idents in self.repeated.items():
            if len(idents) >= SHARED_BY:
                shown = ", ".join(idents[:5]) + (f" and {len(idents) - 5} more" if len(idents) > 5 else "")
                out.append(f"{len(idents)} other events repeat {place} ({shown}) and go with it: a line this "
                           "many events share may be a tool's boilerplate; read it before carrying the request out")
        return out


def _lines_of(text: str, value: str) -> str:
    """"line 7", or "lines 7–8" for a value across lines (an address with its number on the
    next line is one sensitive value): such a value is in no single line, and was said to be
    in the target's fields — a call's input — though it was in its content."""
    start = text.find(value)
    first = last = 0
    at = 0
    for n, line in enumerate(text.splitlines(keepends=True), 1):
        if not first and start < at + len(line):
            first = n
        at += len(line)
        if start + len(value) <= at:
            last = n
            break
    return f"line {first}" if first == last else f"lines {first}–{last}"
