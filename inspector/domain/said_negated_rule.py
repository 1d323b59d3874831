"""A rule the summary quotes whole behind a "do not" / "never": its opposite, not the rule kept.

Survival called a value "kept" wherever its words stood whole in the summary. For an affirmative
rule that reads the words and not what stands before them: the system prompt's "Use the player's
name in the response" (the real DeepSeek dice game) was kept by "Never use the player's name in
the response", and "Give short answers" (the real Responses instructions) by "Do not give short
answers; explain every step at length" — a false all-clear on the one summary that reverses the
rule (verdict-real-three). The rules with a negation of their own ("Never touch prod") are read by
drift's negation rules; this one only asks whether a place the value stands whole is right after
a negation in the same clause.
"""

from __future__ import annotations

import re

from inspector.domain.textnorm import find_value

# A negation that ends right before the value (the text is normalised: casefolded, apostrophes
# plain): "do not give short answers", "never use the player's name", "no longer keep …".
_NEGATED = re.compile(r"(?:\bdo not|\bdon't|\bdont|\bdoes not|\bdoesn't|\bnever|\bno longer|\bmust not|\bmustn't|"
                      r"\bshould not|\bshouldn't|\bnot to|\bneed not|\bneedn't|\bnot)"
                      r"(?:\s+(?:always|ever|again|anymore))?\s+$")
_NEGATION_IN_VALUE = re.compile(r"\b(?:not|never|no|don't|dont|without|nor)\b|n't\b")
_LOOK_BACK = 40


def negated_at(flat: str, value_norm: str) -> int | None:
    """The offset of a place the affirmative value stands whole right after a negation, or None
    (a value that is itself negative is drift's to read)."""
    if not value_norm or _NEGATION_IN_VALUE.search(value_norm):
        return None
    pos = find_value(flat, value_norm)
    while pos >= 0:
        if _NEGATED.search(flat[max(0, pos - _LOOK_BACK):pos]) is not None:
            return pos
        pos = find_value(flat, value_norm, pos + 1)
    return None
