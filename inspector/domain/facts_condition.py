"""A rule whose condition is the sentence before it, proposed with that sentence or not at all.

"If so, tell them they're a winner." (the DeepSeek dice game's prompt) was proposed alone: a rule with
no condition, so on every guess. The same holds for a user's "Check whether the migration ran. If not,
never deploy." Such a sentence — opening with "If so", "If not", "Otherwise", "In that case", "否则",
"如果是" … — is joined to the sentence before it, as written; with no sentence before it, or joined
past the length a rule may have, it is not proposed (verdict-twelve). Shared by the system prompt's
rules (facts_system) and the user's (facts_text).
"""

from __future__ import annotations

import re

from inspector.domain.textnorm import norm

_ANAPHORIC = re.compile(r"^(?:if\s+(?:so|not|yes|no|true|false|that(?:'s|\s+is)\s+the\s+case|it\s+does(?:n't)?|"
                        r"they\s+do(?:n't)?|it\s+is(?:n't)?|they\s+are(?:n't)?)|otherwise|in\s+(?:that|this|either)\s+case|"
                        r"else|if\s+it\s+matches)\b|^(?:如果是|如果不是|否则|若是如此|如是)")


def with_condition(sentences: list[str], sentence: str, limit: int) -> str | None:
    """``sentence``, joined to the one before it in ``sentences`` when its condition is that one;
    None when it needs one and there is none (or the two are longer than ``limit``)."""
    if not (_ANAPHORIC.match(norm(sentence)) or _ANAPHORIC.match(sentence)):
        return sentence
    at = sentences.index(sentence) if sentence in sentences else -1
    joined = f"{sentences[at - 1].strip()} {sentence}" if at > 0 else ""
    return joined if joined and len(joined) <= limit else None


__all__ = ["with_condition"]
