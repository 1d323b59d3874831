"""A summary generation whose text cannot be read: never judged, so never "no drift".

A provider's compaction can be opaque: the OpenAI Responses API's ``compaction`` item holds
only ``encrypted_content`` (the real ``test_openai_responses_compact_messages`` file), and a
Codex ``compacted`` line may carry no text at all. The importer still makes such a compaction
a generation — the model went on from it, and the history it replaced must stay visible — but
its text is a placeholder the importer wrote. Run through the drift rules, that placeholder
names nothing, so every rule was silent and the generation read "no drift found", and
``check`` gave the session a ✓: a green over a summary nobody could read (DESIGN §3.6:
"anything … not verifiable … is shown as such, never … as success").

The importer marks such a generation with ``unreadable`` (why, in words) on its summary
record; drift then adds this warning, which every verdict treats as "not judged" ("?").
"""

from __future__ import annotations

from inspector.domain.drift import NOT_JUDGED, Finding
from inspector.domain.drift import headline as rules_headline
from inspector.domain.plurals import counted

CODE = "summary_unreadable"
# A user's message within the generation's range that every rule read only in its head and tail
# (domain/facts_window.py): a rule said in its unread middle was never proposed, so nothing the
# summary says of it is judged — "?", never "✓" (review-17: a 148,000-character paste with "Never
# run migrations against production" inside, a summary saying "we may run migrations", check ✓).
IN_PART = "said_in_part"
# The drift warnings that make a generation "not judged" (the Drift tab's "?", check's "?").
# A tool result read in part where a finding could hide in its middle (domain/result_in_part.py).
RESULT_IN_PART = "result_in_part"
# A confirmed system-prompt rule the summary does not restate (domain/prompt_rule.py): survival's unknown.
PROMPT_RULE = "prompt_rule_not_restated"
# A pass claim over a failed run when another run passed later (domain/said_suite_green.py).
UNPAIRED = "run_unpaired"
# A confirmed goal the summary rewords, every number and name of it kept (domain/goal_reworded.py).
GOAL_REWORDED = "goal_reworded"
# A value the owner corrected after the generation was written, not in its text (domain/owner_corrected.py).
CORRECTED_AFTER = "corrected_after"
# A completion ("merged", "re-ran and passed") no event in a log that may begin after it shows
# (domain/said_completion.py; a finding where the range is where it had to happen).
COMPLETION = "completion_unshown"
# A path named in a folder a log that may begin after it never shows holding the file (said_stale_path.py).
MISPLACED = "path_misplaced"
# A path a command moved or deleted after a `cd` elsewhere in the same command (said_stale_path.py): as a warning.
STALE = "path_stale"
# A setting a log that may begin after it gives only other values (domain/output_said_values.py).
VALUE = "value_misstated"
NOT_JUDGED_ALL = NOT_JUDGED | {CODE, IN_PART, RESULT_IN_PART, PROMPT_RULE, UNPAIRED, GOAL_REWORDED, CORRECTED_AFTER,
                              COMPLETION, MISPLACED, STALE, VALUE}


def finding(generation: int, why: str) -> Finding:
    """The warning for generation ``generation``, whose text cannot be read because ``why``."""
    return Finding(CODE, None,
                   f"generation {generation} cannot be read ({why}): what it kept, lost or changed is not judged; "
                   "only the events before it, where the log holds them, say what it replaced.", "warning")


def headline(findings: list[Finding]) -> str:
    """The drift rules' headline, except for a generation that could not be read: never "no drift"."""
    said = _in_part(rules_headline(findings), findings)
    if not any(f.code == CODE for f in findings) or any(f.severity == "finding" for f in findings):
        return said
    rest = said.removeprefix("no finding; ").removeprefix("no drift found").removeprefix("no drift in the active records")
    return "not judged: the summary text cannot be read (summary_unreadable)" + (
        rest if rest.startswith(";") else f"; {rest}" if rest else "")


def in_part_finding(seq: int, length: int) -> Finding:
    """The warning for the user's message ``seq`` of ``length`` characters, read in part."""
    from inspector.domain.facts_own_words import USER_HEAD, USER_TAIL

    # said only of a message whose own words were not all read (facts_own_words: a pasted block
    # between them is not what skipped them)
    return Finding(IN_PART, None,
                   f"evt:{seq}, a message of the user's, holds {length:,} characters: every rule read its own "
                   f"words and pasted blocks' edges only in their first {USER_HEAD:,} and last {USER_TAIL:,} "
                   "characters, so a rule said in the rest was never proposed and what the summary says of it is "
                   "not judged (the event is stored, shown and searched whole)", "warning")


def _in_part(said: str, findings: list[Finding]) -> str:
    """"no drift found" is never said over a user's message the rules read only in part."""
    n = sum(1 for f in findings if f.code == IN_PART)
    k = sum(1 for f in findings if f.code == RESULT_IN_PART)
    p = sum(1 for f in findings if f.code == PROMPT_RULE)
    u = sum(1 for f in findings if f.code == UNPAIRED)
    a = sum(1 for f in findings if f.code == CORRECTED_AFTER)
    c = sum(len(f.words) or 1 for f in findings if f.code == COMPLETION)  # one warning per act, each claim counted
    m = sum(1 for f in findings if f.code == MISPLACED)
    t = sum(1 for f in findings if f.code == STALE)  # reached only as warnings: a finding returns above
    v = sum(1 for f in findings if f.code == VALUE)
    if not (n or k or p or u or a or c or m or t or v) or any(f.severity == "finding" for f in findings):
        return said
    part = "; ".join([f"{counted(n, 'user message')} read only in part ({IN_PART})"] * bool(n)
                     + [f"{counted(k, 'tool result')} read only in part ({RESULT_IN_PART})"] * bool(k)
                     + [f"{counted(p, 'system-prompt rule')} not restated, re-sent with every request "
                        f"({PROMPT_RULE})"] * bool(p)
                     + [f"{counted(u, 'pass claim')} over a failed run another run may answer ({UNPAIRED})"] * bool(u)
                     + [f"{counted(a, 'value')} the owner corrected after the summary was written "
                        f"({CORRECTED_AFTER})"] * bool(a)
                     + [f"{counted(c, 'claimed completion')} that no event in the range shows ({COMPLETION})"] * bool(c)
                     + [f"{counted(m, 'path')} in a folder the log never shows ({MISPLACED})"] * bool(m)
                     + [f"{counted(t, 'path')} a command removed after a `cd` elsewhere ({STALE})"] * bool(t)
                     + [f"{counted(v, 'setting')} the log gives another value ({VALUE})"] * bool(v))
    rest = said.removeprefix("no finding; ").removeprefix("no drift found").removeprefix("no drift in the active records")
    return f"no finding; {part}" + (rest if rest.startswith(";") else f"; {rest}" if rest else "")


def in_part_events(findings: list[Finding]) -> set[str]:
    """The "evt:N" refs the said_in_part warnings name (their message opens with it): drift's
    "read in part" note is not said a second time for them."""
    return {f.message.split(",", 1)[0] for f in findings if f.code in (IN_PART, RESULT_IN_PART)}
