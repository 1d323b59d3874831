"""Failed tool results in the raw log, and whether a later result resolved them.

Shared by fact extraction (a ``failure`` record per failing call) and drift
(``failure_dropped``). A result failed when the transcript flags it (``is_error``), when
it reports a non-zero exit status, when a test run reports failures, or when the action
ledger says the call failed. It is resolved when a later call with the same signature
(for shells the same command; for other tools the same tool) succeeded, or a later test
run whose command ran all the failed one ran (`go test ./...` after `go test ./cart/`:
domain/run_scope.py) — and ran a test (a run printing only `[no test files]` or "no tests ran" passed
nothing: domain/no_tests_ran.py): a different, narrower or unreadable shell command is a different
attempt, not a fix, while a tool that later succeeded with
other arguments (the batch export that timed out, then the streaming one that worked)
means the task moved past the failure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.canonical import canonical_json
from inspector.domain.logevents import LogEvent
from inspector.domain.no_tests_ran import ran_no_tests
from inspector.domain.run_scope import Scope, covers, scope

SHELL_TOOLS = frozenset({"bash", "shell", "exec_command", "run_shell_command", "local_shell", "shell_command",
                         "run_terminal_cmd", "container.exec", "execute_command", "terminal"})
_EXIT = re.compile(r"^\s*(?:exit code|exit status|exited with code|process exited with code|exit_code|"
                   r"returncode|exit)\s*[:=]?\s*(-?[1-9]\d*)\b", re.IGNORECASE)
_TESTS_FAILED = re.compile(r"(?im)^(?:=+ .*\b[1-9]\d* failed\b.*=+|FAILED\s+\S+|test result: FAILED|"
                           r"Tests?:\s+[1-9]\d* failed|[1-9]\d* (?:tests? )?failed\b|FAIL\s+\S+|--- FAIL:|"
                           # Go's panic, npm's error block, make's stop (verdict-eleven): a run piped
                           # through `| tail` exits 0, and these lines are all that say it failed.
                           r"panic: \S|npm ERR! |make(?:\[\d+\])?: \*\*\* .*\bError \d+)")
_MATERIAL_REF = re.compile(r"\b(?:res|mat|material|doc):[\w.\-/]+")


@dataclass(frozen=True, slots=True)
class FailedResult:
    seq: int  # the failing result
    call_seq: int | None
    tool: str | None
    signature: str  # what was run: a shell command, or tool(args)
    error: str  # the first telling line of the output
    resolved_by: int | None  # seq of a later success with the same signature
    refs: tuple[str, ...]  # material ids and action ids that name this failure

    def resolved_within(self, last: int) -> bool:
        return self.resolved_by is not None and self.resolved_by <= last

    @property
    def anchors(self) -> tuple[str, ...]:
        """Strings whose presence in a summary (or its unresolved markers) counts as
        mentioning this failure: its event, refs, command and error line, and — since a
        summary names a failure in its own words — the identifiers in them (a test name
        such as ``test_large_batch``, a path) and the error's message ("导出行数不一致" of
        "AssertionError: 导出行数不一致")."""
        return _anchors(self.seq, self.refs, self.signature, self.error, self.tool)


@lru_cache(maxsize=4096)
def _anchors(seq: int, refs: tuple[str, ...], signature: str, error: str, tool: str | None) -> tuple[str, ...]:
    """Computed once per failure (drift asks for every generation)."""
    out = [f"evt:{seq}", *refs]
    if len(signature) >= 4:
        out.append(signature)
    if len(error) >= 12:
        out.append(error)
    idents = [i for i in identifiers(f"{signature}\n{error}") if i != tool]  # a tool's name is not one failure
    out += idents
    out += file_names(idents)  # "failed.go" of "/repo/src/failed.go": a summary names files so
    message = _MESSAGE.search(error)
    if message and len(message.group(1).strip()) >= 4:
        out.append(message.group(1).strip())
    return tuple(dict.fromkeys(out))


# Identifiers distinctive enough that naming one names the failure: words with "_", "/",
# "." or "::" in them (test ids, paths, dotted names), six characters or more, and
# CamelCase names of eight or more (Go and Java test names, exception classes).
_IDENT = re.compile(r"[A-Za-z_][\w.\-/]*[\w]")
_MESSAGE = re.compile(r"(?:error|exception|failure)\s*[:：]\s*(.+)$", re.IGNORECASE)


_CAMEL = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b")  # TestCallbackRetry, TimeoutError


_FILE_NAME = re.compile(r"[\w\-]{2,}\.[A-Za-z0-9]{1,5}$")


def file_names(idents: list[str]) -> list[str]:
    """The file names (six characters or more, with an extension) of the paths among
    ``idents``."""
    out = []
    for i in idents:
        if "/" in i or "\\" in i:
            base = re.split(r"[/\\]", i.rstrip("/\\"))[-1]
            if len(base) >= 6 and _FILE_NAME.fullmatch(base):
                out.append(base)
    return out


def identifiers(text: str) -> list[str]:
    out: list[str] = []
    for token in _IDENT.findall(text.replace("::", " ")):
        if len(token) >= 6 and any(ch in token for ch in "_/.") and not token.startswith(("http", "www.")):
            out.append(token)
    out += [m for m in _CAMEL.findall(text) if len(m) >= 8]
    return out


def signature(call: LogEvent | None, result: LogEvent) -> str:
    tool = (call.tool if call else None) or result.tool or ""
    args = call.args if call else None
    if args and tool.lower() in SHELL_TOOLS:
        cmd = args.get("command") or args.get("cmd")
        if isinstance(cmd, list):
            cmd = " ".join(str(c) for c in cmd)
        if isinstance(cmd, str) and cmd.strip():
            return " ".join(cmd.split())
    if args:
        return f"{tool}({canonical_json(args)[:300]})"  # json.dumps with these options, its encoder built once
    return tool


def failed(result: LogEvent, call: LogEvent | None) -> bool:
    if result.is_error:
        return True
    text = result.text
    if not text:
        return False
    if any(_EXIT.match(line) for line in edge_lines(text)):
        return True
    tool = ((call.tool if call else None) or result.tool or "").lower()
    return tool in SHELL_TOOLS and bool(_TESTS_FAILED.search(text[:200_000]))


# Read-only lookups (Claude Code's Grep/Glob/LS, Gemini CLI's and Codex's search and list tools).
LOOKUP_TOOLS = frozenset({"grep", "glob", "ls", "list_directory", "glob_tool", "search_file_content", "grep_search",
                          "file_search", "find_files", "list_files", "list_dir", "codebase_search"})
_NOT_FOUND = re.compile(r"\bENOENT\b|no such file or directory|does not exist|\bnot found\b|"
                        r"no (?:files|matches|results) found|(?:cannot|could not|can't) find", re.IGNORECASE)


def found_nothing(tool: str | None, text: str) -> bool:
    """A lookup that found nothing, not a failure a summary must carry (verdict-twelve): a read-only
    search or listing (``LOOKUP_TOOLS``) whose error says the path or file is not there — "ENOENT: no
    such file or directory" (also the harness's own ``posix_spawn`` of its search binary, transient
    in 4b7d5121), "Path does not exist", "No files found". It changed nothing, and what the agent did
    next is in the log; a summary that leaves it out loses nothing. Any other error of a lookup
    (permission denied, a bad pattern, a timeout) and every failure of any other tool stays one, and
    so does a lookup the action ledger records as failed."""
    return (tool or "").casefold() in LOOKUP_TOOLS and _NOT_FOUND.search(text[:2000]) is not None


EDGE_SPAN = 4096  # characters at each end of a long text that edge_lines splits


def edge_lines(text: str) -> list[str]:
    """``lines[:2] + lines[-3:]`` of ``lines = text.splitlines()``, without splitting the whole of a
    long text (a tool result can be megabytes; every result of an import is asked): the first
    two lines of its head are the text's when the head holds the start of a third line, and the
    last three of its tail are the text's when the tail holds part of a line before them (a line
    break is never split across the cut in a way that adds or moves a line there: ``\r\n`` cut
    after ``\r`` leaves the head with two elements, and the tail's first element is dropped)."""
    if len(text) > 2 * EDGE_SPAN:
        head = text[:EDGE_SPAN].splitlines()
        tail = text[-EDGE_SPAN:].splitlines()
        if len(head) >= 3 and len(tail) >= 4:
            return head[:2] + tail[-3:]
    lines = text.splitlines()
    return lines[:2] + lines[-3:]


def _error_line(text: str) -> str:
    for line in text.splitlines():
        s = line.strip()
        if s and not _EXIT.match(s) and len(s) >= 4:
            return s[:200]
    return text.strip()[:200]


def find_failures(events: Iterable[LogEvent], failed_actions: dict[str, str] | None = None) -> list[FailedResult]:
    """Every failed result in seq order. ``failed_actions`` maps the call_id of an action the
    ledger records as failed to its action id (a failure even when the output looks fine)."""
    failed_actions = failed_actions or {}
    ordered = sorted(events, key=lambda e: e.seq)
    calls = {e.call_id: e for e in ordered if e.kind == "tool_call" and e.call_id}
    outcomes: list[tuple[LogEvent, str, bool, str]] = []
    for e in ordered:
        if e.kind != "tool_result":
            continue
        call = calls.get(e.call_id) if e.call_id else None
        tool = ((call.tool if call else None) or e.tool or "").casefold()
        is_failed = (failed(e, call) and not found_nothing(tool, e.text)) or (e.call_id in failed_actions)
        by_signature = tool in SHELL_TOOLS or not tool
        # Only a failure's signature is kept, and a success's only where it is what resolves one: a
        # named tool's success resolves by its name (its signature writes its whole arguments as JSON).
        sig = signature(call, e) if is_failed or by_signature else ""
        # What a later success must share to resolve this failure.
        outcomes.append((e, sig, is_failed, sig if by_signature else f"tool:{tool}"))
    out: list[FailedResult] = []
    scopes: dict[str, Scope | None] = {}
    for i, (e, sig, is_failed, same) in enumerate(outcomes):
        if not is_failed:
            continue
        # A later run that ran no test (`[no test files]`, "no tests ran") passed nothing: no resolution.
        resolved = next((later.seq for later, _s, f2, same2 in outcomes[i + 1:]
                         if not f2 and same and (same2 == same or covering(sig, same2, scopes))
                         and not ran_no_tests(later.text)), None)
        call = calls.get(e.call_id) if e.call_id else None
        refs = list(dict.fromkeys(_MATERIAL_REF.findall(e.text)))
        if e.call_id in failed_actions:
            refs.append(failed_actions[e.call_id])
        stub = e.extra.get("stub")
        if isinstance(stub, str):
            refs.append(stub)
        out.append(FailedResult(e.seq, call.seq if call else None, (call.tool if call else None) or e.tool, sig,
                                _error_line(e.text), resolved, tuple(refs)))
    return out


def covering(failed_command: str, later: str, scopes: dict[str, Scope | None]) -> bool:
    """Whether a later shell command ran everything the failed one ran (`go test ./...` after a failed
    `go test ./cart/`, `pytest` after `pytest tests/test_cart.py`: run_scope): its pass answers the
    failure as a re-run of the same command would. A narrower or unreadable one does not."""
    if not later or later.startswith("tool:"):
        return False
    for command in (failed_command, later):
        if command not in scopes:
            scopes[command] = scope(command)
    return covers(scopes[later], scopes[failed_command])
