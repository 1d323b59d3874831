"""What a badge's code means, in the words a person reads: "⚠ 2 transcript lines not read".

The app's header and the HTML report's header said the codes — "⚠ 2 lines_unread",
"⚠ 1 identifier_unverified", "⚠ 1 orphan_result" — and a reviewer new to the tool read a code,
not what happened or where to look (flow-nine). The codes stay stable where scripts read them:
``--json`` and ``check``'s lines (with their sentence); a badge says the count and the words.
Each code has a full form and a short one for a narrow header (80 columns); an unknown code
(one a later version adds) reads as its words with the underscores as spaces, never as nothing.
"""

from __future__ import annotations

from inspector.domain.plurals import counted

# code: (one, many, short one, short many) — nouns a count goes before
_COUNTED: dict[str, tuple[str, str, str, str]] = {
    "unresolved_call": ("call without a result", "calls without a result", "open call", "open calls"),
    "orphan_result": ("result with no call", "results with no call", "orphan result", "orphan results"),
    "call_id_reused": ("reuse of a call id", "reuses of a call id", "call id reused", "call id reuses"),
    "reasoning_missing": ("DeepSeek turn without its thinking", "DeepSeek turns without their thinking",
                          "turn lacks thinking", "turns lack thinking"),
    "reasoning_mode_mismatch": ("event with thinking though thinking is off",
                                "events with thinking though thinking is off", "event thinks while off",
                                "events think while off"),
    "trust_label_conflict": ("event labelled more trusted than it is", "events labelled more trusted than they are",
                             "trust label wrong", "trust labels wrong"),
    "lines_unread": ("transcript line not read", "transcript lines not read", "line unread", "lines unread"),
}

# Warnings of ``check`` (one warning may name several things): what the warning is about, said in the
# plural so "1 warning: …" and "3 warnings: …" both read.
_WARNINGS: dict[str, str] = {
    "identifier_unverified": "names the log cannot confirm",
    "facts_unknown": "facts survival could not judge",
    "facts_lost": "pending facts the summary lost",
    "facts_not_restated": "evidence the summary does not restate",
    "unverified_act": "acts a file claims, not made here",
    "results_cleared": "tool results cleared from the model's context",
    "untrusted_instruction": "untrusted instructions kept as rules",
    "sensitive_data": "sensitive values in the text",
    "summary_unreadable": "summary text that cannot be read",
    "reference_unresolved": "references drift could not resolve",
    "forbidden_action_unclear": "forbidden actions drift could not judge",
    "subject_unjudged": "sentences whose subject drift could not judge",
    "value_disguised": "protected values written in another form",
    "lines_unread": "transcript lines not read",
    "said_in_part": "user messages the rules read only in part",
    "result_in_part": "long tool results the rules read only in part",
    "run_unpaired": "pass claims another run may answer",
    "prompt_rule_not_restated": "system-prompt rules re-sent, not restated",
    "goal_reworded": "goals the summary rewords, not quotes",
    "corrected_after": "values the owner corrected after the summary was written",
    "completion_unshown": "claimed completions that no event in the range shows",
    "path_misplaced": "paths in a folder the log never shows",
    "path_stale": "paths a command removed after a cd elsewhere",
    "value_misstated": "settings the log gives another value",
    "action_rule_unsure": "tool calls that may break a confirmed rule",
    "action_rule_pending": "tool calls against a pending rule",
    "action_rule_dry_run": "dry runs of what a rule forbids",
    "action_rule_not_read": "rules no tool call's words can show, not checked",
}


def _plain(code: str) -> str:
    return code.replace("_", " ")


def counted_badge(code: str, n: int, short: bool = False) -> str:
    """``n`` things of ``code`` in words: "2 transcript lines not read" (short: "2 lines unread")."""
    words = _COUNTED.get(code)
    if words is None:
        return f"{n:,} {_plain(code)}"
    one, many = words[2:] if short else words[:2]
    return counted(n, one, many)


def warning_badge(code: str, n: int) -> str:
    """``n`` of check's warnings of ``code``: "1 warning: names the log cannot confirm"."""
    return f"{counted(n, 'warning')}: {_WARNINGS.get(code, _plain(code))}"


__all__ = ["counted_badge", "warning_badge"]
