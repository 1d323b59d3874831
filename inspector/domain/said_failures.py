"""Whether a summary mentions a failed result, or calls it a success.

``failure_dropped`` fires when a failure inside the range is neither mentioned (its
error line, ids, a file it touched, its tool named beside a failure word; its evt ref or
command only in a clause that says it failed: said_failure_stated) nor among the unresolved markers — or when it is described as having gone well,
whatever the summary cites. Survival's verdict on a failure record reads the same
anchors, so both say the same about one failure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from inspector.domain.failures import FailedResult, file_names, identifiers
from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_claims import done_claim
from inspector.domain.said_failure_stated import stated_at
from inspector.domain.said_output_numbers import ToolRun
from inspector.domain.said_run_pairing import about_other_run
from inspector.domain.said_suite_green import fails_after
from inspector.domain.subjects import call_subject, glossed
from inspector.domain.textnorm import find_word

_FAILED_WORD = re.compile(r"(?<![\w])(?:fail(?:ed|s|ing|ure)?|error(?:ed|s)?|broke|broken|crash(?:ed)?|timed out|"
                          r"did not (?:run|work|apply|succeed)|didn't (?:run|work|apply|succeed))(?![\w])|"
                          r"失败|报错|出错|没跑成功|没成功|未成功|超时|异常")


def tool_said_failed(said: Said, tool: str | None) -> bool:
    """The tool is named (as a whole word) in a sentence that says it failed: "run_migration
    failed." names the failure even with no identifier of its call. Generic tool names
    (Bash, Edit…) are too common to name one failure and do not count."""
    if not tool or len(tool) < 6 or tool.casefold() in _GENERIC_TOOLS:
        return False
    pos = find_word(said.text, tool)
    while pos >= 0:
        s = said.sentence_at(pos)
        if s is not None and _FAILED_WORD.search(s.text):
            return True
        pos = find_word(said.text, tool, pos + 1)
    return False


_GENERIC_TOOLS = frozenset({"bash", "shell", "edit", "write", "read", "multiedit", "notebookedit", "exec_command",
                            "apply_patch", "run_terminal_cmd", "execute", "command", "terminal", "python"})


_CITATIONS = 200  # citations of one anchor read per summary (a hostile text repeats one thousands of times)


def mentioned_anywhere(said: Said, anchors: Iterable[str], cited: Iterable[str] = ()) -> str | None:
    """The first anchor the summary names, or that its unresolved markers hold. An ``evt:N`` and the
    anchors in ``cited`` (the failure's command) are citations: they name it only where their clause
    or sentence says it failed (said_failure_stated) — "After the edit 2 packages pass (evt:7)." does not."""
    flat = said.flat()
    citations = {norm_phrase(c) for c in cited}
    for anchor in anchors:
        a = norm_phrase(anchor)
        if not a:
            continue
        if a.startswith("evt:") or a in citations:  # an evt as a whole word; none where "evt:" is nowhere
            find = (lambda at, a=a: find_word(flat, a, at)) if a.startswith("evt:") else (
                lambda at, a=a: flat.find(a, at))
            pos = find(0) if not a.startswith("evt:") or said.has("evt:") else -1
            for _ in range(_CITATIONS):  # past so many, the rest are not read: not named, never a green
                if pos < 0:
                    break
                if stated_at(said, pos):
                    return anchor
                pos = find(pos + 1)
        elif a in flat:
            return anchor
        if a in said.unresolved:
            return anchor
    return None


def failure_claimed_fixed(said: Said, failure: FailedResult, runs: tuple[ToolRun, ...] = (),
                          last: int | None = None) -> Hits | None:
    """A done/passed claim about an unresolved failure's subject ("Migration 0042 applied
    cleanly", "迁移 0042 已完成", "go test ./... passes now") — whatever the summary cites; not a
    claim whose clause names another command of ``runs`` that passed or runs none of what failed
    ("after the edit `go test ./cart/` passes" beside a failed `go test ./...`: said_run_pairing)."""
    words = list(call_subject(failure.tool, failure.signature))
    files = file_names(identifiers(failure.signature))  # "Edited … failed.go" of a failed Edit
    # The failing test or exception its error line names ("--- FAIL: TestExportBatch"):
    # "TestExportBatch passes now" claims this failure fixed.
    named = [i.casefold() for i in identifiers(failure.error) if "/" not in i and "." not in i]
    for subject in (*([f] for f in files), *([n] for n in named), words, glossed(words)):
        if subject:
            hit = done_claim(said, subject)
            if hit and not fails_after(hit) and not (runs and about_other_run(hit.sentence, hit.words[0], failure,
                                                                             runs, last)):
                return hit
    return None
