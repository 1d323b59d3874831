"""Drift's word for a confirmed system-prompt rule a summary does not restate: a note, not ✗.

verdict-real-three made a system prompt's rules pending constraints and survival call such a
rule ``unknown`` (not ``missing``) when a summary does not restate it: the prompt is sent beside
the summary with every request (Anthropic ``system``, Responses ``instructions``, a system message
kept ahead of it), and a compaction replaces the conversation, not the prompt. Once a reviewer
confirmed the rule, drift still called it ``protected_missing`` (✗) — drift ✗, survival ?, check ✗
for the same summary and the same record, and a false alarm on every faithful summary of a prompted
session. Drift now says what survival says, in the same words: ``prompt_rule_not_restated``, a
warning that makes the verdict "?" (what the harness re-sends is not in the log), never ✗. A
summary that contradicts the rule is still ✗ (the negation rules read active records as before).
"""

from __future__ import annotations

from inspector.domain.drift_finding import Finding
from inspector.domain.facts_system import not_replaced

CODE = "prompt_rule_not_restated"


def note(generation: int, key: str, value: str, sources: tuple[str, ...]) -> Finding:
    """The warning for the prompt's rule ``value`` (``key``) that generation ``generation`` leaves out."""
    return Finding(CODE, key, f"generation {generation} does not restate “{value}” ({key}), {not_replaced(sources)}.",
                   "warning", words=(value,))


__all__ = ["CODE", "note"]
