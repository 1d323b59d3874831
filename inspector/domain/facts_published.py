"""Effects the agent published: a commit it made, a branch it pushed, a pull request it opened.

Found on a real manual compaction (verdict-real: the 2.1.14 transcript 4b7d5121b42a, "commit
this", "push and PR"): the log holds ``git commit`` printing ``[alex/ent-112-… 6d61daa] feat(…)``,
``git push`` printing ``branch 'alex/ent-112-…' set up to track …`` and ``gh pr create``
printing ``https://github.com/entireio/cli/pull/85`` — effects in the world that a later turn
must not repeat (a second pull request, a second commit). No record carried them, so a summary
that dropped "PR #85 created" was judged as keeping everything. They are proposed here (pending,
like every proposal), read from the call's own command and its own result only: a URL a ``gh pr
view`` printed, or a hash ``git log`` listed, is no effect of that call.

* the commit: ``evidence_ref`` whose value is the hash the commit printed (an identifier: kept
  when the summary names it), its message as the rationale;
* the pushed branch: ``evidence_ref`` whose value is the branch name, when git says it was new
  or set up to track (``main -> main`` is no identifier a summary could be checked by);
* the pull or merge request: ``progress`` whose value is its URL.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from inspector.domain.facts_text import Proposal
from inspector.domain.failures import SHELL_TOOLS
from inspector.domain.logevents import LogEvent

_GIT_COMMIT = re.compile(r"\bgit\b[^|;&\n]*?\bcommit\b")
_GIT_PUSH = re.compile(r"\bgit\b[^|;&\n]*?\bpush\b")
_PR_CREATE = re.compile(r"\b(?:gh\s+pr\s+create|glab\s+mr\s+create|hub\s+pull-request)\b")
# "[branch abc1234] message", "[main (root-commit) abc1234] message": git commit's first line.
_COMMITTED = re.compile(r"(?m)^\[(?P<branch>[^\]\s]+)(?: \([\w-]+\))? (?P<hash>[0-9a-f]{7,40})\] (?P<message>.+)$")
_TRACKING = re.compile(r"branch '(?P<branch>[^'\s]+)' set up to track")
_NEW_BRANCH = re.compile(r"\* \[new branch\]\s+\S+\s+->\s+(?P<branch>\S+)")
_REQUEST_URL = re.compile(r"https?://[^\s\"'<>)\]]+/(?:pull|merge_requests|pull-requests)/\d+\b")
_DRY_RUN = re.compile(r"(?:^|\s)--dry-run\b")
# A branch name a summary can be checked by: it has a separator or a digit ("main" has neither).
_NAMED_BRANCH = re.compile(r"[/\-_\d]")


def _command(call: LogEvent | None) -> str:
    if call is None or (call.tool or "").casefold() not in SHELL_TOOLS:
        return ""
    args = call.args or {}
    value = args.get("command", args.get("cmd"))
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return value if isinstance(value, str) else ""


def of_result(call: LogEvent | None, result: LogEvent) -> list[Proposal]:
    """What one shell call's own successful result says it published."""
    command = _command(call)
    text = result.content or ""
    if not command or not text or result.is_error or _DRY_RUN.search(command):
        return []  # a dry run prints what it would publish ("* [new branch] …") and publishes nothing
    out: list[Proposal] = []
    seqs = (call.seq,) if call is not None else ()
    if _GIT_COMMIT.search(command):
        m = _COMMITTED.search(text)
        if m:
            out.append(Proposal("evidence_ref", m["hash"], result.seq, "published.commit", cites=seqs,
                                rationale=f"git commit printed: [{m['branch']} {m['hash']}] {m['message'][:200]}"))
    if _GIT_PUSH.search(command):
        m = _TRACKING.search(text) or _NEW_BRANCH.search(text)
        if m and _NAMED_BRANCH.search(m["branch"]):
            out.append(Proposal("evidence_ref", m["branch"], result.seq, "published.push", cites=seqs,
                                rationale=f"git push published the branch {m['branch']}"))
    if _PR_CREATE.search(command):
        urls = _REQUEST_URL.findall(text)
        if urls:
            out.append(Proposal("progress", urls[-1], result.seq, "published.request", cites=seqs,
                                rationale=f"opened by: {' '.join(command.split())[:200]}"))
    return out


def published(events: Iterable[LogEvent]) -> list[Proposal]:
    """Every published effect of ``events`` (a whole session's, in seq order)."""
    calls: dict[str, LogEvent] = {}
    out: list[Proposal] = []
    for e in events:
        if e.kind == "tool_call" and e.call_id:
            calls[e.call_id] = e  # the call its result answers: the last one of its id before it
        elif e.kind == "tool_result" and e.call_id:
            out += of_result(calls.get(e.call_id), e)
    return out
