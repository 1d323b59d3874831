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

from inspector.domain.facts_text import NOT_IN_URL, Proposal
from inspector.domain.failures import SHELL_TOOLS
from inspector.domain.logevents import LogEvent

_GIT_COMMIT = re.compile(r"\bgit\b[^|;&\n]*?\bcommit\b")
_GIT_PUSH = re.compile(r"\bgit\b[^|;&\n]*?\bpush\b")
_PR_CREATE = re.compile(r"\b(?:gh\s+pr\s+create|glab\s+mr\s+create|hub\s+pull-request)\b")
# "[branch abc1234] message", "[main (root-commit) abc1234] message": git commit's first line.
_COMMITTED = re.compile(r"(?m)^\[(?P<branch>[^\]\s]+)(?: \([\w-]+\))? (?P<hash>[0-9a-f]{7,40})\] (?P<message>.+)$")
_TRACKING = re.compile(r"branch '(?P<branch>[^'\s]+)' set up to track")
_NEW_BRANCH = re.compile(r"\* \[new branch\]\s+\S+\s+->\s+(?P<branch>\S+)")
_REQUEST_URL = re.compile(rf"https?://[^\s\"'<>)\]{NOT_IN_URL}]+/(?:pull|merge_requests|pull-requests)/\d+\b")
_DRY_RUN = re.compile(r"(?:^|\s)--dry-run\b")
# git push's short -n is --dry-run too ("git push -n origin x" prints "* [new branch]" and pushes
# nothing); for commit -n is --no-verify, which does commit, so it is read after push only.
_PUSH_DRY_N = re.compile(r"\bgit\b[^|;&\n]*?\bpush\b[^|;&\n]*?\s-(?!-)[A-Za-z]*n[A-Za-z]*(?=\s|$)")
# ``git commit --amend`` replaces the branch's last commit: the one it amends was never published as
# it stands, so its proposal is withdrawn (review-15 item 10: both were proposed as commits).
_AMEND = re.compile(r"\bgit\b[^|;&\n]*?\bcommit\b[^|;&\n]*?\s--amend\b")
_PRINTED_BRANCH = re.compile(r"^git commit printed: \[(?P<branch>[^\]\s]+)")
# gh pr create on a branch that has one prints "a pull request for branch … already exists: URL"
# (Claude Code marks it an error; other formats may not): that request was not opened by this call.
_ALREADY_EXISTS = re.compile(r"(?i)\b(?:pull|merge) request\b[^\n]*\balready exists\b")
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
                                rationale=f"git commit printed: [{m['branch']} {m['hash']}] {m['message'][:200]}",
                                detail={"amends_last_commit": True} if _AMEND.search(command) else {}))
    if _GIT_PUSH.search(command) and not _PUSH_DRY_N.search(command):
        m = _TRACKING.search(text) or _NEW_BRANCH.search(text)
        if m and _NAMED_BRANCH.search(m["branch"]):
            out.append(Proposal("evidence_ref", m["branch"], result.seq, "published.push", cites=seqs,
                                rationale=f"git push published the branch {m['branch']}"))
    if _PR_CREATE.search(command):
        urls = _REQUEST_URL.findall(text)
        if urls and not _ALREADY_EXISTS.search(text):
            out.append(Proposal("progress", urls[-1], result.seq, "published.request", cites=seqs,
                                rationale=f"opened by: {' '.join(command.split())[:200]}"))
    return out


def _branch(p: Proposal) -> str | None:
    m = _PRINTED_BRANCH.match(p.rationale or "")
    return m["branch"] if m else None


def amends(proposals: Iterable[Proposal]) -> bool:
    return any(p.rule == "published.commit" and p.detail.get("amends_last_commit") for p in proposals)


def without_amended(proposals: list[Proposal]) -> list[Proposal]:
    """``proposals`` (in seq order) less each commit a later ``git commit --amend`` on its branch replaced."""
    out: list[Proposal] = []
    for p in proposals:
        if p.rule == "published.commit" and p.detail.get("amends_last_commit"):
            branch = _branch(p)
            for i in range(len(out) - 1, -1, -1):
                if out[i].rule == "published.commit" and _branch(out[i]) == branch:
                    del out[i]  # the amended commit: replaced, not published as it stood
                    break
        out.append(p)
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
    return without_amended(out)
