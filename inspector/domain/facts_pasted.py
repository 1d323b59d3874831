"""A failure the user pasted into a message is a failure record to propose (verdict-twelve).

Failure records came only from tool results (failures.find_failures): "release failed after 22m5s
… context deadline exceeded" / "Error: The process '…goreleaser' failed with exit code 1", pasted by
the user of ee8f793b as the reason for the whole session, was no record, so a summary that left it
out lost nothing by any rule. A user message of two lines or more (or with a fenced block) holding a
line that reads as a failure printed by a program — a traceback, ``npm ERR!``, Go's ``--- FAIL:`` /
``FAIL\\tpkg`` / ``panic:``, pytest's ``FAILED``, ``Error: …`` / ``error[E…]: …`` / ``fatal: …``,
``SomethingError: …``, "failed with exit code N", make's ``*** … Error N``, a ``⨯``/``✗`` step,
GitHub's ``##[error]`` — is proposed (pending, ``failure.pasted``) with its most telling line.

No run in the log re-ran what failed, so nothing resolves it and nothing can confirm it fixed:
survival calls a summary that names it ``kept``, one that leaves it out ``missing``, and one that
says it was fixed ``unknown`` (said, not checked) rather than ``contradicted``.
"""

from __future__ import annotations

import re

from inspector.domain.facts_text import Proposal, request_text
from inspector.domain.logevents import LogEvent

RULE = "failure.pasted"
_LINE = re.compile(
    r"^[ \t>*•·-]*(?:(?P<mark>[⨯✗✘×] \S.*)|Traceback \(most recent call last\):?|npm ERR! \S.*|--- FAIL: \S.*|"
    r"FAIL(?:ED)?\s+\S.*|panic: \S.*|(?:Error|ERROR|error)(?:\[\w+\])?: \S.*|fatal: \S.*|Exception in thread .*|"
    r"(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): \S.*|.*\bfailed with exit (?:code|status) [1-9]\d*.*|"
    r"make(?:\[\d+\])?: \*\*\* .*Error \d+.*|##\[error\].*)$")


def pasted_failure(text: str) -> str | None:
    """The most telling failure line of a pasted block, or None (the module's rule)."""
    lines = text.splitlines()
    if len([ln for ln in lines if ln.strip()]) < 2 and "```" not in text:
        return None
    found = [ln.strip(" \t>*•·-") for ln in lines[:2000] if _LINE.match(ln)]
    telling = [ln for ln in found if not ln.startswith("Traceback")]
    if not telling:
        return None
    # A traceback names its error last; every other program names it first.
    line = telling[-1] if len(found) > len(telling) else telling[0]
    return " ".join(line.split())[:160]


def pasted_failures(events: list[LogEvent]) -> list[Proposal]:
    out = []
    for e in events:
        if e.kind != "user_message":
            continue
        text = request_text(e)
        line = pasted_failure(text) if text else None
        if line is not None:
            out.append(Proposal("failure", f"output the user pasted failed: {line}", e.seq, RULE,
                                detail={"signature": f"pasted evt:{e.seq}", "resolved_by": None}))
    return out


__all__ = ["RULE", "pasted_failure", "pasted_failures"]
