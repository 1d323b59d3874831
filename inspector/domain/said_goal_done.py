"""A goal the summary calls done while the log's last word on it says it is not (verdict-five).

"Migrate all tables to the new schema" kept word for word, then "All tables were migrated; the
goal is done." — or "Goal: … ✅", "目标已完成" — over a log whose last event about the goal says
"Migrated 3 of 12 tables; 9 are left." Nothing protected said the goal was open, so every rule
passed it: a green over an unfinished task.

The summary claims the goal done when a clause names "the goal"/"the task"/"目标"/"任务" with a
done word, or the goal's own sentence carries a done mark (✅, ✓, "[x]", "(done)"). The log
contradicts it when, of the events inside the generation's range, the last one naming half the
goal's subject words says in that sentence that the work is unfinished ("3 of 12", "left",
"remaining", "not yet", "still", "还剩", "尚未", "未完成"). Drift: ``open_issue_claimed_done`` on the
goal's key; survival: ``contradicted``. A claim hedged, denied or asked ("whether the goal is
done", "the goal is not done") claims nothing; a log whose last word says done leaves it alone.

The log contradicts it too when the last tool result inside the range failed and no later
result resolved it ("3 failed, 41 passed", a traceback, "exit code 1", a result the transcript
flags as an error — ``failures``) (verdict-six): "Fixed the imports. The goal is done." over a
test run that still fails was a green, since no event said "unfinished" in words.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.failures import FailedResult
from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_steps import denies, side_at, telling_words
from inspector.domain.textnorm import CJK, norm

# The goal or the whole task, not one of its parts ("the first task (the users table) is done").
_GOAL_WORD = re.compile(r"(?<![a-z])(?:the|this|our|whole|entire|main|overall)\s+(?:goal|task|objective)(?![a-z])|"
                        r"^\s*(?:goal|task|objective)\s*[:：]|^\s*(?:goal|task|objective)\s+(?=(?:achieved|met|done|"
                        r"complete|completed|accomplished|reached|finished)(?![a-z]))|目标|整个任务|全部任务|任务已全部|"
                        # "All done." / "Everything is done." standing alone: the whole task (verdict-nine)
                        r"^\s*(?:all|everything(?:\s+is)?)\s+(?=(?:done|complete|completed|finished)\s*$)|"
                        r"^\s*(?:全部|都|一切)(?:已经|已)?(?=完成了?\s*$)")
_DONE = re.compile(r"(?<![a-z])(?:done|complete|completed|achieved|finished|accomplished|met|fulfilled)(?![a-z])|"
                   r"✅|✓|✔|☑|已完成|完成了|全部完成|已达成|达成了|已实现|实现了")
_MARK = re.compile(r"✅|✓|✔|☑|\[x\]|\((?:done|complete|completed)\)|（已完成）")
_OPEN = re.compile(r"(?<![a-z])(?:\d+\s+of\s+\d+|left|remaining|remain|not yet|still|pending|unfinished|incomplete|"
                   r"in progress|to go)(?![a-z])|还剩|剩下|剩余|尚未|仍|未完成|进行中|中的\s*\d+\s*[张个项]")
_CUT = re.compile(r"[;；。.!！?？\n]")
CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_ZH_FILLER = re.compile(r"[把的了在到和与及或将被所全每]")  # a piece holding one tells nothing


@dataclass(frozen=True, slots=True)
class GoalDone:
    words: tuple[str, ...]  # the summary's done words
    sentence: str  # the summary's sentence
    seq: int  # the event whose last word says unfinished
    log_says: str  # that event's sentence


def goal_done_against_log(said: Said, value: str, event_texts: dict[int, str] | None,
                          covers: tuple[int, int] | None) -> GoalDone | None:
    """The summary's claim that the goal is done, when the log's last word on it says it is not."""
    if not event_texts:
        return None
    claim = _claim(said, value)
    if claim is None:
        return None
    last = _last_word(value, event_texts, covers)
    if last is None:
        return None
    seq, sentence = last
    if not _OPEN.search(sentence) or (_DONE.search(sentence) and not _OPEN.search(sentence)):
        return None
    return GoalDone(claim[0], claim[1], seq, sentence.strip())


def goal_done_over_failure(said: Said, value: str, failures: tuple[FailedResult, ...], result_seqs: tuple[int, ...],
                           covers: tuple[int, int] | None, event_texts: dict[int, str] | None) -> GoalDone | None:
    """The summary's claim that the goal is done, when the last tool result in range failed and
    nothing later in the range resolved it (``result_seqs``: the seqs of every tool result, in
    order) — or ends in a Python traceback, which no exit status flags."""
    if not result_seqs:
        return None
    # Once per generation: every goal of the session asks about the same last result.
    last = said.remember(("failed_last", covers), lambda: _failed_last(failures, result_seqs, covers, event_texts))
    claim = _claim(said, value) if last is not None or event_texts else None
    if claim is None:
        return None
    if last is None:  # verdict-eight: a failure said in words only, nothing later passing
        last = said.remember(("red_last", covers), lambda: red_in_words(failures, result_seqs, covers, event_texts))
    if last is None and _DEPLOY_GOAL.search(value.lower()):
        last = said.remember(("red_deploy", covers),
                             lambda: red_in_words(failures, result_seqs, covers, event_texts, deploy=True))
    return GoalDone(claim[0], claim[1], last[0], last[1]) if last is not None else None


# A build or a test run said to fail in words ("CI says the build is red", "测试挂了"), and said to
# pass; a tool result that passed ("44 passed", "ok", "build succeeded") resolves the words.
_RED = re.compile(r"(?<![a-z])(?:build|ci|pipeline|tests?|test suite|suite|checks?)\s+(?:is|are|was|were|still|went|"
                  r"turned|has gone|is still|are still|keeps?)?\s*(?:red|failing|broken|fails|fail)(?![a-z])|"
                  r"(?<![a-z])red (?:build|ci|pipeline)(?![a-z])|测试挂了|测试失败|构建失败|构建挂了|流水线挂了|ci 挂了|"
                  r"测试没通过|测试没有通过|跑不过")
_GREEN = re.compile(r"(?<![a-z])(?:build|ci|pipeline|tests?|test suite|suite|checks?)\s+(?:is|are|was|were|now|all)?\s*"
                    r"(?:green|pass|passes|passed|passing|fixed)(?![a-z])|测试通过|构建成功|测试全部通过|修好了")
_PASSED = re.compile(r"(?<![a-z])(?:\d+ passed|passed|ok|build succeeded|success|all checks passed)(?![a-z])")
# verdict-nine: a deploy said broken ("the deploy is broken", "staging is down", "发布挂了") is read
# only for a goal about deploying — "btw the staging server is down" says nothing of a README fix —
# and only a deploy said up again, or a later deploy that went through, resolves it.
_RED_DEPLOY = re.compile(r"(?<![a-z])(?:deploy|deployment|release|rollout|staging|production|prod|site|server|service)\s+"
                         r"(?:is|are|was|were|still|went|has gone|is still|are still|keeps?)?\s*(?:broken|failing|fails|"
                         r"fail|down)(?![a-z])|发布挂了|发布失败|部署挂了|部署失败|上线失败|上线挂了|服务挂了")
_GREEN_DEPLOY = re.compile(r"(?<![a-z])(?:deploy|deployment|release|rollout|staging|production|prod|site|server|service)\s+"
                           r"(?:is|are|was|were|now|is back)?\s*(?:up|healthy|fixed|succeeded|went through|green)(?![a-z])|"
                           r"发布成功|部署成功|上线成功|修好了")
_PASSED_DEPLOY = re.compile(r"(?<![a-z])(?:deployed|released|rolled out|success|succeeded)(?![a-z])")
_DEPLOY_GOAL = re.compile(r"(?<![a-z])(?:deploy|deploying|release|ship|roll out|rollout)(?![a-z])|部署|发布|上线")
# "make sure the build fails if a test fails": a rule or a plan about failing, not a report of one.
_HEDGED = re.compile(r"(?<![a-z])(?:if|when|whenever|whether|unless|until|should|must|would|could|make sure|ensure|"
                     r"in case|so that|expect|expects|expected)(?![a-z])[^.;,]*$|如果|假如|万一|确保|应该")
_LOOK_BACK = 60  # events: a claim is weighed against the end of its range, not the whole log


def red_in_words(failures: tuple[FailedResult, ...], result_seqs: tuple[int, ...], covers: tuple[int, int] | None,
                 event_texts: dict[int, str] | None, deploy: bool = False) -> tuple[int, str] | None:
    """(seq, sentence) of the last word on the build or the tests in range when a message says it
    fails and no later message or tool result says it passes (verdict-eight)."""
    if not event_texts:
        return None
    results = set(result_seqs)
    failed = {f.seq for f in failures}
    lo, hi = covers if covers else (min(event_texts), max(event_texts))
    for seq in sorted((n for n in event_texts if lo <= n <= hi), reverse=True)[:_LOOK_BACK]:
        text = norm(event_texts[seq])
        if seq in results:
            if seq in failed:
                return None  # a failed run: ``_failed_last`` reads it
            if (_PASSED_DEPLOY if deploy else _PASSED).search(text[-400:]):
                return None
            continue
        red_re = _RED_DEPLOY if deploy else _RED
        red, green = red_re.search(text), (_GREEN_DEPLOY if deploy else _GREEN).search(text)
        if green and (not red or green.start() > red.start()):
            return None  # "Staging was down before; after the deploy staging is up." (verdict-nine)
        if red and not denies(text[max(0, red.start() - 30):red.end()]) and not _HEDGED.search(
                text[max(0, red.start() - 40):red.start()]):
            line = next((p for p in re.split(r"(?<=[。！？!?.])\s*|\n", text) if red_re.search(p)), text)
            return seq, line.strip()[:200]
    return None


def _failed_last(failures: tuple[FailedResult, ...], result_seqs: tuple[int, ...], covers: tuple[int, int] | None,
                 event_texts: dict[int, str] | None) -> tuple[int, str] | None:
    lo, hi = covers if covers else (result_seqs[0], result_seqs[-1])
    i = bisect_right(result_seqs, hi) - 1
    if i < 0 or result_seqs[i] < lo:
        return None
    last = result_seqs[i]
    text = (event_texts or {}).get(last, "")
    failure = next((f for f in failures if f.seq == last and not f.resolved_within(hi)), None)
    if failure is None and not _ends_in_traceback(text):
        return None
    return last, _telling_line(text) or (failure.error if failure else "")


_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b")


def _ends_in_traceback(text: str) -> bool:
    """A Python traceback as the result's end: "Traceback (most recent call last):" and an
    exception line last ("ModuleNotFoundError: No module named 'imp'")."""
    tail = text[-4096:]
    lines = [ln.strip() for ln in tail.splitlines() if ln.strip()]
    return "Traceback (most recent call last)" in tail and bool(lines) and _EXCEPTION.match(lines[-1]) is not None


def _telling_line(text: str) -> str:
    """The result's last line that says it failed (a test tally, an exception, an exit status),
    else its last non-blank line: what a reader of the log sees."""
    lines = [ln.strip() for ln in text[-4096:].splitlines() if ln.strip()]
    told = [ln for ln in lines if _FAILED_LINE.search(ln)]
    return (told or lines or [""])[-1][:200]


_FAILED_LINE = re.compile(r"(?i)\bfailed\b|\bfailures?\b|error\b|exception\b|exit (?:code|status)|traceback")


def _claim(said: Said, value: str) -> tuple[tuple[str, ...], str] | None:
    v = norm_phrase(value).rstrip("。.!！ ")
    if v and said.remember(("goal_done_mark",), lambda: _MARK.search(said.text) is not None):
        for i in said.holding(v):
            m = _MARK.search(said.sentences[i].text)
            if m:
                return (m.group(),), said.stripped(said.sentences[i])
    return said.remember(("goal_done_claim",), lambda: _goal_claim(said))


def _goal_claim(said: Said) -> tuple[tuple[str, ...], str] | None:
    """The first clause calling the goal or the whole task done (once per generation)."""
    if not _DONE.search(said.text) or not _GOAL_WORD.search(said.text):
        return None
    for s in said.sentences:
        for part in _CUT.split(s.text):
            g, d = _GOAL_WORD.search(part), _DONE.search(part)
            if g and d and not denies(part) and not _OPEN.search(part) and "whether" not in part:
                return (d.group(),), said.stripped(s)
    return None


@lru_cache(maxsize=4096)
def _subject(value: str) -> tuple[str, ...]:
    """The goal's telling words; for Chinese, its two-character pieces (less "所有", "全部"…),
    since a log reports "已迁移 12 张表中的 3 张" for "把所有表迁移到新结构"."""
    v = norm(value)
    words = [w for w in telling_words(v) if w.isascii() and not w.isdigit()]
    for run in CJK_RUN.findall(v):
        words += [run[i:i + 2] for i in range(len(run) - 1) if not _ZH_FILLER.search(run[i:i + 2])]
    return tuple(dict.fromkeys(words))


def _last_word(value: str, event_texts: dict[int, str], covers: tuple[int, int] | None) -> tuple[int, str] | None:
    """(seq, sentence) of the last event in range with a sentence naming half the goal's subject words."""
    own = _subject(value)
    cjk = CJK.search(value) is not None
    if len(own) < 2:
        return None
    need = 1 if cjk else max(2, math.ceil(0.5 * len(own)))
    lo, hi = covers if covers else (min(event_texts), max(event_texts))
    for seq in sorted((n for n in event_texts if lo <= n <= hi), reverse=True):
        text = norm_phrase(event_texts[seq])  # remembered: every generation asks the same events
        if norm_phrase(value) in text and seq == min(event_texts):
            continue  # the request itself
        best = None
        for part in re.split(r"(?<=[。！？!?.])\s*|\n", text):
            if sum(1 for w in own if side_at(part, (w,)) >= 0) >= need and norm_phrase(value) not in part:
                best = part
        if best is not None:
            return seq, best
    return None


__all__ = ["GoalDone", "goal_done_against_log", "goal_done_over_failure"]
