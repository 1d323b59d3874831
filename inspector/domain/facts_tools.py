"""Facts in what the agent did: files it changed, calls that failed, its own todo list.

These come from tool *inputs* and outcomes, which the transcript records exactly, so
they are the most reliable proposals: an artifact is the exact path an edit named.
"""

from __future__ import annotations

import re
from typing import Any

from inspector.domain.facts_text import Proposal
from inspector.domain.failures import SHELL_TOOLS, FailedResult, find_failures
from inspector.domain.logevents import LogEvent

# Tool name (case-folded) -> the argument that names the file it writes.
EDIT_TOOLS: dict[str, tuple[str, ...]] = {
    "edit": ("file_path", "path"), "write": ("file_path", "path"), "multiedit": ("file_path", "path"),
    "notebookedit": ("notebook_path", "file_path"), "write_file": ("file_path", "path", "absolute_path"),
    "replace": ("file_path", "path"), "edit_file": ("file_path", "path", "target_file"),
    "create_file": ("file_path", "path"), "str_replace_editor": ("path",), "str_replace_based_edit_tool": ("path",),
}
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$", re.MULTILINE)
TODO_TOOLS = frozenset({"todowrite", "update_plan", "write_todos"})


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


def _edited_paths(call: LogEvent) -> list[str]:
    tool = (call.tool or "").casefold()
    args = call.args or {}
    if tool in EDIT_TOOLS:
        if tool in ("str_replace_editor", "str_replace_based_edit_tool") and args.get("command") == "view":
            return []
        for name in EDIT_TOOLS[tool]:
            if isinstance(args.get(name), str) and args[name].strip():
                return [args[name]]
        return []
    if tool in SHELL_TOOLS:
        command = args.get("command") or args.get("cmd")
        return redirected(" ".join(command) if isinstance(command, list) else command) if command else []
    if tool == "apply_patch" or any("*** Begin Patch" in s for s in _strings(args)):
        found: list[str] = []
        for text in _strings(args):
            for m in _PATCH_FILE.finditer(text):
                found.append(m.group(1) or m.group(2))
        return found
    return []


# A shell command's quoted strings (an echo's text may hold ">"), then each file an output redirection
# writes: "echo … >> docs/color.md" (the real Gemini CLI session ab2b9748b105, its only edit of the file
# the task ended on, was no artifact). Not "2>&1", "&>/dev/null" or a descriptor.
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
_REDIRECT = re.compile(r"(?<![0-9&<>])>>?\|?\s*(?P<path>[^\s;&|<>()`'\"$]+)")
_HEREDOC = re.compile(r"<<-?\s*'?\"?(\w+)'?\"?.*?^\1\s*$", re.DOTALL | re.MULTILINE)


def redirected(command: str) -> list[str]:
    """The files a shell command's output redirections write (``tee`` is not read)."""
    text = _QUOTED.sub(" ", _HEREDOC.sub(" ", command))
    return [m.group("path") for m in _REDIRECT.finditer(text)
            if not m.group("path").startswith(("/dev/", "&")) and m.group("path") not in ("-",)]


def artifacts(events: list[LogEvent]) -> list[Proposal]:
    """Every path an edit call wrote, unless its own result says the edit failed."""
    failed_calls = {e.call_id for e in events if e.kind == "tool_result" and e.is_error and e.call_id}
    out: list[Proposal] = []
    for e in events:
        if e.kind != "tool_call" or (e.call_id and e.call_id in failed_calls):
            continue
        for path in _edited_paths(e):
            out.append(Proposal("artifact", path, e.seq, f"artifact.{(e.tool or 'patch').casefold()}"))
    return out


def failures(events: list[LogEvent]) -> list[Proposal]:
    return [failure_proposal(f) for f in find_failures(events)]


def failure_proposal(f: FailedResult) -> Proposal:
    value = f"{f.signature[:160] or f.tool or 'a call'} failed: {f.error[:160]}"
    detail: dict[str, object] = {"resolved_by": f"evt:{f.resolved_by}" if f.resolved_by else None,
                                 "signature": f.signature[:300]}
    return Proposal("failure", value, f.seq, "failure.result", detail=detail)


def _todo_items(call: LogEvent) -> list[tuple[str, str]]:
    args = call.args or {}
    items = args.get("todos") if isinstance(args.get("todos"), list) else args.get("plan")
    out: list[tuple[str, str]] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        text = item.get("content") or item.get("step") or item.get("description")
        status = item.get("status")
        if isinstance(text, str) and text.strip() and isinstance(status, str):
            out.append((" ".join(text.split()), status))
    return out


def todos(events: list[LogEvent]) -> list[Proposal]:
    """The agent's todo list: one record per item, with every state it passed through;
    an item not completed at the end of the log is an open issue, else progress."""
    return todo_proposals(todo_states(events, {}))


def todo_states(events: list[LogEvent], states: dict[str, list[tuple[int, str]]]) -> dict[str, list[tuple[int, str]]]:
    """Each todo item's trail of (seq, status), extended by ``events`` (which follow the
    ones ``states`` was made of)."""
    for e in events:
        if e.kind == "tool_call" and (e.tool or "").casefold() in TODO_TOOLS:
            for text, status in _todo_items(e):
                trail = states.setdefault(text, [])
                if not trail or trail[-1][1] != status:
                    trail.append((e.seq, status))
    return states


def todo_proposals(states: dict[str, list[tuple[int, str]]]) -> list[Proposal]:
    out: list[Proposal] = []
    for text, trail in states.items():
        done = trail[-1][1] == "completed"
        out.append(Proposal("progress" if done else "open_issue", text, trail[0][0], "todo.item",
                            detail={"todo_states": [[f"evt:{seq}", status] for seq, status in trail]}))
        for seq, _status in trail[1:]:
            out.append(Proposal("progress" if done else "open_issue", text, seq, "todo.item"))
    return out
