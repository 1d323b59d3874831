"""A summary's quoted list of the user's messages is not the summary keeping their state.

Claude Code's compaction summaries (and any summarizer told to "list every user message")
hold a section that quotes each user message word for word — "6. All user messages:", "All
user messages:", "## User messages (verbatim)". Every later request then stands in the
summary whatever the rest of it says, and survival called each one ``kept``. But a request's
state is not its words: whether it was done, is still pending, or what its answer was, is
told by the narrative — the analysis, "Problem Solving", "Pending Tasks", "Current Work",
"Next Step". In the real 7662d755 summary (verdict-real) the user's account "I closed them by
running `/quit` …" is quoted in the list while the narrative says "User had done `git reset`
which orphaned 2 sessions": the dispute flattened, and the quote made it "kept".

So a goal whose value stands only inside such a section is judged again on the narrative
alone (the summary with those sections left out): kept there, it is kept; contradicted there,
contradicted; otherwise ``unknown`` — never ``kept`` — with the narrative sentence that shares
most of its words, so a person reads what the summary says instead. Only goals: a path, a
hash or a rule is its words, and a quote keeps it whole; a request is a task whose state the
words do not carry.

A quoted-messages section starts at a label line naming the user's messages (any list style
or heading level: "6. All user messages:", "**User messages:**", "## User prompts
(verbatim)", "用户消息：") and runs to the next label line — a heading, or a line that is not a
list item and ends in a colon ("7. Pending Tasks:", "Summary:"), or a paragraph after a blank
line that is no list item — or the end of the text; at
least half of its lines must open with a quotation mark (after a bullet or number), so a
"User requests:" list the summary words itself ("- Fix the export timeout (done)") stays
narrative.
"""

from __future__ import annotations

import re
from functools import lru_cache

from inspector.domain.said import Said
from inspector.domain.textnorm import phrase_parts

# The label of a quoted-messages section: the whole line names the user's messages.
_LABEL = re.compile(
    r"\s*(?:#{1,6}\s*)?(?:\d{1,2}[.)]\s*)?(?:\*\*|__)?\s*(?:all\s+(?:of\s+)?(?:the\s+)?)?"
    r"(?:(?:verbatim|quoted)\s+)?(?:the\s+)?(?:user(?:'s|s')?|human(?:'s)?)\s+"
    r"(?:messages?|prompts?|requests?|inputs?|turns?)(?:\s+(?:verbatim|quoted|in order))?"
    r"(?:\s*\([^)]{0,40}\))?\s*(?:\*\*|__)?\s*[:：]?\s*(?:\*\*|__)?\s*"
    r"|\s*(?:#{1,6}\s*)?(?:\d{1,2}[.)]\s*)?(?:\*\*)?\s*(?:全部|所有)?用户(?:的)?(?:全部|所有)?(?:消息|原话|请求|输入)"
    r"(?:（[^）]{0,20}）)?\s*(?:\*\*)?\s*[:：]?\s*(?:\*\*)?\s*", re.I)
# A label line that ends the section: a heading, a bold label, or a line that is no list item
# (a numbered one counts when it does not open with a quote) and ends in a colon.
_NEXT = re.compile(r"\s*(?:#{1,6}\s.*|\*\*[^*]+\*\*\s*[:：]?\s*|\d{1,2}[.)]\s+[^\s\"“'].*[:：]\s*(?:\*\*)?\s*|"
                   r"[^\s\-*+•\"“'(].{0,100}[:：]\s*(?:\*\*)?\s*)")


# A line of the list that quotes: a bullet or number, then a quotation mark.
_QUOTED_ITEM = re.compile(r"\s*(?:[-*+•]|\d{1,3}[.)])?\s*[\"“'「`>]")


_ITEM = re.compile(r"\s*(?:(?:[-*+•]|\d{1,3}[.)])\s|[\"“'「`>])")


def _ends(line: str, before: str) -> bool:
    """Whether ``line`` ends the section: a label line, or a paragraph after a blank line that is
    no list item ("The agent then fixed …" under the list is the narrative again)."""
    if _NEXT.fullmatch(line) and not _LABEL.fullmatch(line):
        return True
    return bool(line.strip()) and not before.strip() and not _ITEM.match(line)


def _quoting(body: list[str]) -> bool:
    """Whether a section's lines are mostly quotations: "User requests:" over "- Fix the export
    timeout (done)" is the narrative's own list, not a quote of the messages."""
    items = [line for line in body if line.strip()]
    return bool(items) and 2 * sum(1 for line in items if _QUOTED_ITEM.match(line)) >= len(items)


@lru_cache(maxsize=256)
def quoted_sections(text: str) -> tuple[tuple[int, int], ...]:
    """The line ranges [first, end) of the text's quoted-messages sections, label line included."""
    lines = text.split("\n")
    found: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        if _LABEL.fullmatch(lines[i]):
            end = i + 1
            while end < len(lines) and not _ends(lines[end], lines[end - 1]):
                end += 1
            if _quoting(lines[i + 1:end]):
                found.append((i, end))
            i = end
        else:
            i += 1
    return tuple(found)


@lru_cache(maxsize=256)
def narrative(text: str) -> str | None:
    """The text with its quoted-messages sections left out (their lines kept empty, so the
    sections around them stay apart); None when it has none."""
    spans = quoted_sections(text)
    if not spans:
        return None
    lines = text.split("\n")
    for start, end in spans:
        for i in range(start, end):
            lines[i] = ""
    return "\n".join(lines)


def nearest_sentence(said: Said, value: str) -> str | None:
    """The narrative sentence holding most of the value's longer words (at least two), for a
    person to read beside an ``unknown``: where the narrative tells the same story its own way."""
    ts = {t for t in phrase_parts(value)[1] if len(t) >= 4}
    best, best_count = None, 1
    for s in said.sentences:
        count = sum(1 for t in ts if t in s.text)
        if count > best_count:
            best, best_count = s, count
    return said.stripped(best) if best is not None else None


__all__ = ["narrative", "nearest_sentence", "quoted_sections"]
