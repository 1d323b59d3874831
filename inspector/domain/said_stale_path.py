"""A path the summary names where the log shows the file is not (verdict-real-five).

``invented`` counts a path as named when the log holds its last part ("strategy/state.go" is
named if any event says "state.go"), so a summary that moves a file to another folder
("cmd/entire/cli/strategy/state.go" for the real transcript's ".../session/state.go") or names a
file the range renamed or deleted was judged like its faithful twin (verdict-real-four:
manual-stale-path). Two shapes are read here:

* **misplaced** (``path_misplaced``) — the summary names a path with a folder; the log never holds
  it, but the range *changed* a file of that name under other folders only (an edit or write
  call's ``file_path``, a ``diff --git a/…`` header, git status's "modified: …"), and none of those
  paths has the summary's folders in the same order (so a shortened "cli/state.go" for
  "cmd/entire/cli/session/state.go" is named, "strategy/state.go" is not). Only changed files:
  a file name merely seen elsewhere (a Go repository has a hooks.go in many packages; the real
  7662d755 summary names two the range never touched) says nothing of where the summary's file
  is. A finding where the log is whole (as ``invented_identifier``), else a warning ("?"): a log
  that continues an earlier conversation may have changed the other file before it begins;
* **stale** (``path_stale``) — a shell command in the range that did not fail moved, renamed or
  deleted the path (``git mv A B``, ``mv A B``, ``git rm A``, ``rm A``) and no later command names it
  again, yet the summary names it in a sentence that says nothing of the move ("moved", "renamed",
  "deleted", "removed", "now", "→", 已删除, 移动, 重命名…) nor names where it went. A finding: the
  range itself shows the file gone, so a reader sent to that path finds nothing.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from inspector.domain.drift_finding import Finding
from inspector.domain.invented import named_identifiers
from inspector.domain.said import Said
from inspector.domain.said_output_numbers import ToolRun

MISPLACED, STALE = "path_misplaced", "path_stale"

# A shell command that moves or deletes files: its first word (after cd …&&, env, sudo).
_MOVES = re.compile(r"^(?:git\s+)?(?:mv|rm)$")
_CD = re.compile(r"^\s*(?:builtin\s+)?(?:cd|pushd)\s+(?!\.?/?\s*$)(\S+)\s*$")  # a `cd .` (or `cd ./`) stays put
_MAY_MOVE = re.compile(r"(?:^|&&|;|\|\|)\s*(?:\w+=\S*\s+)*(?:sudo\s+|env\s+|command\s+)*(?:git\s+)?(?:mv|rm)\s")
_SAYS_MOVED = re.compile(r"(?<![\w-])(?:mov(?:e|ed|es|ing)|renam(?:e|ed|es|ing)|delet(?:e|ed|es|ing)|remov(?:e|ed|es|ing)|"
                         r"gone|deprecated|now at|now in|formerly|was at|→|->)(?![\w-])|删除|删掉|移动|移到|挪到|重命名|改名",
                         re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class StalePath:
    code: str
    path: str  # as the summary writes it
    sentence: str
    shown: str  # what the log shows instead (the other paths, or the command and its evt)
    after_cd: str = ""  # the folder a `cd` earlier in the same command moved to: a relative path there may be another file


def _dirs(path: str) -> list[str]:
    return [s for s in path.lower().strip("/").split("/")[:-1] if s not in ("", ".", "..", "~")]


def _in_order(want: list[str], have: list[str]) -> bool:
    it = iter(have)
    return all(any(w == h for h in it) for w in want)


_CHANGED_ARG = re.compile(r'"(?:file_path|path|filename|file)"\s*:\s*"([^"]{1,400})"')
_CHANGED_OUT = re.compile(r"^(?:diff --git a/(\S+) b/|\+\+\+ b/(\S+)|\s*(?:modified|new file|deleted):\s+(\S+))",
                          re.MULTILINE)
_WRITES = re.compile(r"^(?:edit|multiedit|write|str_replace\w*|apply_patch|create_file|write_file|replace)\(\{",
                     re.IGNORECASE)


def changed_paths(runs: Iterable[ToolRun]) -> set[str]:
    """The paths (lower-cased) the runs changed: a write or edit call's path argument, and the paths
    a diff or git status printed."""
    out: set[str] = set()
    for r in runs:
        if _WRITES.match(r.command):
            out.update(m.group(1).lower() for m in _CHANGED_ARG.finditer(r.command))
        if "diff --git" in r.output or "modified:" in r.output or "+++ b/" in r.output:
            out.update(next(g for g in m.groups() if g).lower() for m in _CHANGED_OUT.finditer(r.output))
    return out


def misplaced(said: Said, evidence: str, changed: set[str]) -> list[StalePath]:
    """Paths the text names in a folder the range never shows changing that file (see the module)."""
    out: list[StalePath] = []
    if not changed:
        return out
    for n in named_identifiers(said.text):
        if n.kind != "path":
            continue
        path = n.text.lower().rstrip("/")
        name = path.rsplit("/", 1)[-1]
        dirs = _dirs(path)
        if not dirs or path in evidence or name not in evidence:
            continue
        others = {c.strip("/") for c in changed if c.rsplit("/", 1)[-1] == name and "/" in c}
        if not others or any(_in_order(dirs, _dirs(o)) for o in others):
            continue
        sentence = said.sentence_holding(n.text, fold=True)
        out.append(StalePath(MISPLACED, n.text, sentence, ", ".join(f"“{o}”" for o in sorted(others)[:3])))
    return out


# A command that may put a path back (a commit message naming it does not).
_PUTS_BACK = re.compile(r"\s*(?:git\s+(?:mv|checkout|restore|stash)|mv|cp|touch|ln|install|rsync)\s")


def _moved_or_deleted(runs: Iterable[ToolRun]) -> dict[str, tuple[int, str, str, str]]:
    """Each path a shell command that did not fail moved or deleted: path → (evt, command, where to,
    the folder a `cd` before it in the same command moved to — "" when none, or the path is absolute)."""
    gone: dict[str, tuple[int, str, str, str]] = {}
    for r in runs:
        if r.failed or "(" in r.command[:40] and "{" in r.command[:40]:
            continue
        if not _MAY_MOVE.search(r.command):
            continue
        cd = ""
        for piece in re.split(r"&&|;|\|\|", r.command):
            went = _CD.match(piece)
            if went:  # `cd /tmp/scratch && rm src/a.go` removed /tmp/scratch/src/a.go, maybe not the repo's
                cd = went.group(1)
                continue
            if _PUTS_BACK.match(piece):  # brought back later in the same command ("mv A /tmp/x && mv /tmp/x A")
                for back in [g for g, (seq, *_) in gone.items() if seq == r.seq and g in piece]:
                    del gone[back]
            if not _MAY_MOVE.match(piece.strip()):
                continue  # shlex only what may move or delete (a 10 KB heredoc commit message is not read)
            try:
                words = shlex.split(piece)
            except ValueError:
                continue
            if "--cached" in words:  # git rm --cached: out of the index, the file stays where it was
                continue
            while words and ("=" in words[0] or words[0] in ("sudo", "env", "command")):
                words = words[1:]
            head = " ".join(words[:2]) if words[:1] == ["git"] else words[0] if words else ""
            if not _MOVES.match(head):
                continue
            args = [w for w in words[2 if words[0] == "git" else 1:] if not w.startswith("-")]
            if head.endswith("mv") and len(args) >= 2:
                for a in args[:-1]:
                    gone[a.rstrip("/")] = (r.seq, r.command, args[-1], "" if a.startswith("/") else cd)
            elif head.endswith("rm"):
                for a in args:
                    gone[a.rstrip("/")] = (r.seq, r.command, "", "" if a.startswith("/") else cd)
    return gone


def stale(said: Said, runs: tuple[ToolRun, ...]) -> list[StalePath]:
    """Paths the text names that a command in ``runs`` moved or deleted (see the module)."""
    gone = _moved_or_deleted(runs)
    if not gone:
        return []
    out: list[StalePath] = []
    low_text = said.text.lower()
    for n in named_identifiers(said.text):
        if n.kind not in ("path", "file"):
            continue
        token = n.text.lower().rstrip("/")
        for path, (seq, command, to, cd) in gone.items():
            p = path.lower()
            if not (p == token or p.endswith("/" + token) or token.endswith("/" + p)):
                continue
            if any(token in r.command.lower() for r in runs if r.seq > seq):
                continue  # named again later (re-created, moved back): the rule cannot tell
            if to and re.search(rf"(?<![\w.-]){re.escape(to.lower().rstrip('/').rsplit('/', 1)[-1])}(?![\w-])", low_text):
                continue  # the summary names where it went
            sentence = said.sentence_holding(n.text, fold=True)
            if _SAYS_MOVED.search(sentence):
                continue
            out.append(StalePath(STALE, n.text, sentence, f"`{command[:120]}` at evt:{seq}", cd))
            break
    return out


def stale_path_findings(generation: int, said: Said, evidence: str | None, whole: bool | None,
                        runs: tuple[ToolRun, ...], covers: tuple[int, int] | None) -> list[Finding]:
    """``path_stale`` (a finding) and ``path_misplaced`` (a finding where the log is whole, else a
    warning) of one generation."""
    if "/" not in said.text and "." not in said.text:
        return []
    inside = tuple(r for r in runs if covers is None or covers[0] <= r.seq <= covers[1])
    out = [Finding(STALE, None, f"generation {generation} names “{s.path}” in “{s.sentence}”, but {s.shown} moved or "
                   "deleted it in the range and nothing after names it again: a reader sent there finds nothing."
                   if not s.after_cd else
                   f"generation {generation} names “{s.path}” in “{s.sentence}”, and {s.shown} moved or deleted a "
                   f"path of that name after `cd {s.after_cd}`: the rule cannot tell whether it is the same file — "
                   "a person must read it.", "finding" if not s.after_cd else "warning",
                   words=(s.path,), where=s.sentence) for s in stale(said, inside)]
    if evidence is not None:
        said_stale = {s.path for s in stale(said, inside)} if out else set()
        for s in misplaced(said, evidence, changed_paths(inside)):
            if s.path in said_stale:
                continue
            out.append(Finding(MISPLACED, None, f"generation {generation} names “{s.path}” in “{s.sentence}”; the log "
                               f"never holds that path, and shows the range changing that file only as {s.shown}"
                               + ("." if whole is True else ": the log continues an earlier conversation, so the rule "
                                  "cannot tell whether the file named was changed before it begins — a person must read it."),
                               "finding" if whole is True else "warning", words=(s.path,), where=s.sentence))
    return out
