"""A citation is not a statement: whether the sentence that cites a failed run says it failed (verdict-thirteen).

A failure was "mentioned" — and so never ``failure_dropped`` — when the summary's ``sources`` list held its
``evt:N``, or its text held ``evt:N`` or its command anywhere: "After the edit 2 packages pass (evt:7)." over
a run evt:7 that failed, "The edit fixed the discount bug (evt:7).", "Ran `go test ./...` after the edit
(evt:7)." all named the failure by citing it while saying it went well, or nothing of how it went (e-d2 and
h-d3 of the thirteenth attack). A reader of such a summary is told nothing failed.

Now a failure's citations — its ``evt:N`` and its command — name it only where the clause that holds one
(else its sentence) *says* it failed: a failure word ("fails", "broke", "timed out", "error", "失败",
"报错"…) or words to that effect ("unresolved", "does not pass yet", "still red", "missed the target", "exited with code 2",
"non-zero", "could not build", "rejected", "未解决", "没通过", "未达标", "退出码为 1"), not
denied ("nothing failed", "no errors", "没有失败") and not said fixed in the same breath ("the failure at
evt:3 was fixed"). The ``sources`` list states nothing, so it names no failure. The failure's own words —
its error line, the test or file its output names — name it wherever they stand, as before: they tell
what failed.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from inspector.domain.said import Said

_STATED = re.compile(
    r"(?<![\w])(?:fail(?:ed|s|ing|ures?)?|errors?|errored|broke|broken|crash(?:ed|es)?|timed out|times out|"
    r"did not (?:run|work|apply|succeed|pass)|didn't (?:run|work|apply|succeed|pass)|"
    r"(?:does|do|did) not pass|(?:doesn't|don't|didn't) pass|not (?:yet )?pass(?:ing|es)?|"
    r"unresolved|not (?:yet )?(?:resolved|fixed)|(?:still|is|are|stays?|went|turned) red|regress(?:ed|ion)?)(?![\w])|"
    r"(?<![\w])(?:(?:missed|below|short of|under) (?:the |its |our )?(?:target|goal|threshold|bar)|"
    r"exit(?:ed|s)? (?:with )?(?:an? )?(?:exit )?(?:code |status )?[1-9]\d*|exit (?:code|status) (?:of |was |is |= ?)?[1-9]\d*|"
    r"non-?zero|(?:could not|couldn't|cannot|can't|unable to|was not able to|wasn't able to) (?:run|build|compile|"
    r"start|connect|finish|complete|pass|apply|find|load|reach)|rejected|refused|denied|aborted|killed|"
    r"panick?ed|hung|hangs)(?![\w])|"
    r"失败|报错|出错|没跑成功|没成功|未成功|超时|异常|未解决|未修复|没通过|未通过|不通过|没有通过|未达标|没达标|不达标|未达到|没达到|没有达到|"
    r"退出码\s*(?:为|是)?\s*[1-9]|崩溃|被拒绝|无法")
# A failure word denied just before it ("nothing failed", "no errors", "did not fail", "没有失败").
_DENIED = re.compile(r"(?:\b(?:no|nothing|none|zero|0|never|not|without|any|n't)\s+(?:\w+\s+)?|没有|未|无|没)$")
# Said fixed in the same clause ("the failure at evt:3 was fixed"): not a failure that stands.
_FIXED = re.compile(r"(?<![\w])(?:fixed|resolved|repaired|solved|addressed)(?![\w])|已修复|修复了|已解决|解决了")
_FIX_DENIED = re.compile(r"(?:\b(?:not|never|n't|un)\s*(?:been\s+|be\s+|yet\s+)?|未|没|没有)$")
_CLAUSE = re.compile(r"[;；,，：—]|(?<!:):(?![\d:])|\bbut\b|\bwhile\b|\bwhereas\b|\bthough\b")


def _undenied(pattern: re.Pattern[str], denial: re.Pattern[str], text: str) -> bool:
    return any(not denial.search(text[max(0, m.start() - 16):m.start()]) for m in pattern.finditer(text))


def says_failed(text: str) -> bool:
    """Whether ``text`` (a clause or a sentence, normal form) says something failed and does not call it
    fixed (the module's rule)."""
    return _undenied(_STATED, _DENIED, text) and not _undenied(_FIXED, _FIX_DENIED, text)


_JOINED = 3  # sentences an ellipsis may join ("go test ./... FAILED": the splitter ends one at "./...")


def _sentence(said: Said, i: int) -> tuple[str, list[int], bool]:
    """Sentence ``i`` (joined to the next while it ends in an ellipsis), where its clauses start, and
    whether it says something failed — worked out once per sentence (every citation in it asks)."""
    def read() -> tuple[str, list[int], bool]:
        spans = said.sentences
        text, j = spans[i].text, i
        while text.rstrip().endswith(("...", "…")) and j + 1 < len(spans) and j - i < _JOINED:
            j += 1
            text += spans[j].text
        return text, [0, *(m.end() for m in _CLAUSE.finditer(text))], says_failed(text)

    return said.remember(("failure_stated", i), read)


def stated_at(said: Said, pos: int) -> bool:
    """Whether the citation at ``pos`` of the summary's text stands where the summary says it failed: in
    its sentence, or — when a fix word elsewhere in the sentence denies it there — in its own clause."""
    i = said.sentence_index(pos)
    if i < 0 or pos >= said.sentences[i].end:
        return False
    text, starts, failed = _sentence(said, i)
    if failed:
        return True
    at = pos - said.sentences[i].start
    begin = starts[bisect_right(starts, at) - 1]
    return said.remember(("failure_stated", i, begin), lambda: says_failed(_clause_from(text, begin)))


def _clause_from(text: str, begin: int) -> str:
    end = _CLAUSE.search(text, begin)
    return text[begin:end.start() if end else len(text)]


__all__ = ["says_failed", "stated_at"]
