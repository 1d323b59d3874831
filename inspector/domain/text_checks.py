"""Warnings about summary text: rules from untrusted sources and sensitive data.

These are heuristics and say so: a warning is shown and never blocks; its absence
proves nothing (semantic_lossless stays "unknown").
"""

from __future__ import annotations

import re

# Sentences that read as standing rules (English and Chinese).
RULE = re.compile(
    r"(from now on|always|never|ignore (all |any )?previous|do not ask|skip the approval|从现在起|以后都|永远|一律|忽略之前)"
    r"[^.。!！?？\n]{0,80}",
    re.IGNORECASE,
)
SENSITIVE = {
    "phone number": re.compile(r"(?<!\d)(?:\+?\d{1,3}[ -])?1[3-9]\d[- ]?\d{4}[- ]?\d{4}(?!\d)|\(\d{3}\) ?\d{3}-\d{4}"),
    "email address": re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+"),
    "card or ID number": re.compile(r"(?<!\d)\d{15,19}(?!\d)|(?<!\d)\d{17}[\dXx](?!\d)"),
    "secret key": re.compile(r"(?:sk|pk|api|key|token)[-_][A-Za-z0-9]{16,}", re.IGNORECASE),
}


def rule_sentences(text: str) -> list[str]:
    return [m.group(0).strip() for m in RULE.finditer(text)]


def untrusted_rules(summary: str, trusted_texts: list[str], untrusted_texts: list[str]) -> list[str]:
    """Rule-like sentences of the summary that appear in untrusted text (tool or model
    output) and in no trusted text (what the user or owner said)."""
    found: list[str] = []
    trusted = "\n".join(trusted_texts).casefold()
    untrusted = "\n".join(untrusted_texts).casefold()
    for sentence in rule_sentences(summary):
        probe = sentence.casefold()[:24]
        if probe and probe in untrusted and probe not in trusted:
            found.append(sentence)
    return found


def sensitive_data(text: str) -> list[str]:
    return [name for name, pattern in SENSITIVE.items() if pattern.search(text)]
