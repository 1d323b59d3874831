"""``--strict`` for ``check``, ``drift`` and ``survival``: one meaning, one JSON shape.

``check --strict`` exited 1 on a session "not judged in full" (?) and said ``"strict": true``
and a top-level ``"ok"`` (the gate's answer, as the exit code) in ``--json``; ``drift`` and
``survival`` had no such flag, so a CI gate on one generation had to parse the document itself
to fail on a "?" (flow-19). The three commands read the gate from here.
"""

from __future__ import annotations

from typing import Any

import click

from inspector.domain.plurals import counted

strict_option = click.option("--strict", is_flag=True,
                             help="Exit 1 on a verdict not judged in full (?) too, not only on ✗.")


def gate(verdict: str, strict: bool) -> dict[str, Any]:
    """The fields a gate reads in ``--json``: ``"ok"`` (false exactly when the command exits 1 for
    its verdict: ``failed``, or ``unknown`` under ``--strict``) and ``"strict": true`` when asked."""
    passed = verdict != "failed" and not (strict and verdict == "unknown")
    return {"ok": passed, **({"strict": True} if strict else {})}


def strict_line(verdict: str, strict: bool, what: str, many: int = 1) -> list[str]:
    """The last line of the plain output when ``--strict`` is what fails it (as ``check`` says it)."""
    if strict and verdict == "unknown":
        return [f"--strict: exit 1, {counted(many, what)} not judged in full"]
    return []


__all__ = ["gate", "strict_line", "strict_option"]
