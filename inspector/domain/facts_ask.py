"""The user's ask before a pasted log, as the goal (verdict-thirteen).

ee8f793b's first message is one paragraph: "I just tried to make a release with the
.github/workflows/release.yml through go release and did run into this issue:  • sign & notarize …
⨯ release failed after 22m5s error=notarize: … context deadline exceeded / Error: The process … failed
with exit code 1". The goal proposed was that paragraph's first 600 characters — mostly goreleaser's
log — and drift wanted every number of it back (``protected_missing`` over the faithful summary). The
log is what the user pasted, not what they asked: here the goal is their words up to the paste, joined
to the paste's most telling line (facts_pasted: the line the failure is named by), so the ask is kept
and the failure it points at ("this issue") is still named. A message made only of a log keeps its
head as the goal (an error pasted to fix is still the session's goal), and the pasted failure is
proposed on its own either way (``failure.pasted``).
"""

from __future__ import annotations

import re

# A line that belongs to a pasted log, not to the user's prose: indented, a list or status mark, a
# timestamp, a key=value, a program's error line.
_LOG_LINE = re.compile(r"^(?:\s{2,}|\t|[•⨯✗✘✓›▶*>#|-]\s|\[|\d{1,4}[-:/]\d{2}|[A-Za-z_]+=\S|(?:Error|ERROR|error|"
                       r"fatal|FAIL|panic|npm ERR!|Traceback)\b)")
# A label that opens the paste on the prose's own line ("… into this issue:  • sign & notarize").
_LABEL = re.compile(r"[:：](?:\s{2,}|\s*(?=[•⨯✗✘›▶]))")
_MIN_WORDS = 4


def ask_before_log(paragraph: str) -> str | None:
    """The goal of a first paragraph that turns into a pasted failing log: the user's words before it and
    the log's telling line; None when the paragraph holds no such log, or no ask of four words before it."""
    from inspector.domain.facts_pasted import pasted_failure

    told = pasted_failure(paragraph)
    lines = paragraph.splitlines()
    if told is None or not lines or _LOG_LINE.match(lines[0]) or told_part(lines[0]) == lines[0].strip():
        return None  # a message made only of a log: its head stays the goal
    told = re.split(r"\s{2,}", told_line(paragraph) or told)[0]  # "⨯ release failed after 22m5s", not its key=values
    asked: list[str] = []
    for i, line in enumerate(lines):
        if i > 0 and _LOG_LINE.match(line):
            break
        label = _LABEL.search(line)
        if label is not None:
            asked.append(line[:label.start() + 1])
            break
        asked.append(line)
    else:
        return None  # no log line after the prose: nothing to tell apart
    ask = " ".join(" ".join(asked).split())
    if len(ask.split()) < _MIN_WORDS or told in ask:
        return None
    return f"{ask} {told}"


def told_line(paragraph: str) -> str | None:
    """The raw line (its own spacing kept) that facts_pasted names the failure by."""
    from inspector.domain.facts_pasted import _LINE

    found = [ln.strip(" \t>*•·-") for ln in paragraph.splitlines()[:2000] if _LINE.match(ln)]
    telling = [ln for ln in found if not ln.startswith("Traceback")]
    return (telling[-1] if len(found) > len(telling) else telling[0]) if telling else None


def told_part(value: str) -> str | None:
    """The pasted failure line a goal made by :func:`ask_before_log` ends with ("⨯ release failed after
    22m5s" of "… into this issue: ⨯ release failed after 22m5s"); None for any other value."""
    from inspector.domain.facts_pasted import _LINE

    at = value.find(": ")
    while at >= 0:
        rest = value[at + 2:].strip()
        if rest and _LINE.match(rest):
            return rest
        at = value.find(": ", at + 2)
    return None


__all__ = ["ask_before_log", "told_line", "told_part"]
