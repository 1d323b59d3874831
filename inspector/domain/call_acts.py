"""Whether one tool call does the act a rule forbids: ✗ it does, ? it may, or a dry run of it.

A call is read by what it runs (domain/shell_words.py for a shell call: ``echo``, ``grep`` and
comments mention words and run nothing), by the path an editing tool writes (Edit, Write,
apply_patch…), and by the SQL statements a database call or ``psql -c`` sends. The act matches
exactly or not at all: ``git push origin main-fix`` is not a push to ``main``; ``rm -r`` is not
``rm -rf``; a push with no branch named (``git push``: the current branch) or a commit whose branch
the call does not show is ``unsure`` with the reason, never ✗ and never silently nothing; a call
that asks for a dry run (``--dry-run``, ``git push -n``) is ``dry_run``, said as such. Pure.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from inspector.domain.call_input import MAX_DEPTH
from inspector.domain.call_kinds import day_check, kind_act
from inspector.domain.call_targets import (
    CallAct,
    argv_words,
    branch_switch,
    dry_run,
    git_sub,
    positionals,
    short_letters,
    sql_of_call,
    sql_statements,
    targets_of,
)
from inspector.domain.call_tools import tool_act
from inspector.domain.rule_acts import RuleAct
from inspector.domain.shell_words import SimpleCommand, simple_commands

SHELL_TOOLS = frozenset({"bash", "shell", "sh", "exec", "exec_command", "run_shell_command", "shell_command",
                         "run_terminal_cmd", "terminal", "execute_command", "run_command", "local_shell",
                         "container.exec", "bash_tool", "execute_bash", "run_bash"})
EDIT_TOOLS = frozenset({"edit", "write", "multiedit", "notebookedit", "write_file", "replace", "edit_file",
                        "create_file", "str_replace_editor", "str_replace_based_edit_tool", "apply_patch", "patch",
                        "writefile", "editfile", "write_to_file", "replace_in_file"})
_PATH_KEYS = ("file_path", "path", "notebook_path", "absolute_path", "filename", "target_file")
_PATCH_PATH = re.compile(r"^\*\*\* (Update|Add|Delete) File: (.+)$|^\+\+\+ (?:b/)?(.+)$", re.M)
RANK = {"against": 3, "unsure": 2, "dry_run": 1}


def call_act(act: RuleAct, tool: str | None, args: Any, at: str | None, branch: str | None = None) -> CallAct | None:
    """The strongest reading of one call against ``act`` (against, then unsure, then dry run)."""
    found = [r for r in _readings(act, tool, args, at, branch) if r is not None]
    return day_check(act, max(found, key=lambda r: RANK[r.verdict]), at) if found else None


def _readings(act: RuleAct, tool: str | None, args: Any, at: str | None,
              branch: str | None) -> list[CallAct | None]:
    name = (tool or "").lower()
    raw = args.get("_raw_arguments") if isinstance(args, dict) else None
    if isinstance(raw, str):  # not JSON (builder.parse_arguments kept the text): the act's words, read as text
        needles = [w for w in (*act.command[:1], *act.objects) if w] or [act.kind]
        low = raw.lower()
        if all(n in low for n in needles):
            return [CallAct("unsure", tuple(needles), raw[:200], "the call's arguments are not JSON, so they were "
                            "read as text, not as what it runs")]
        return []
    out: list[CallAct | None] = []
    for c in shell_commands(name, args):  # in order: "git switch main && git commit" commits on main
        out.append(_command(act, c, at, branch))
        branch = branch_switch(c.argv) or branch
    if name in EDIT_TOOLS and act.kind in ("modify", "delete"):
        out += [_path_act(act, path, how) for path, how in edited_paths(name, args)]
    if act.kind in ("drop", "delete", "modify") and _is_sql_tool(name):
        out += [_sql_act(act, stmt) for stmt in sql_statements(_strings(args))]
    elif not out and name not in EDIT_TOOLS and not _is_shell(name):
        out.append(tool_act(act, name, args))
    return out


def _is_shell(name: str) -> bool:
    return name in SHELL_TOOLS or "bash" in name or "shell" in name


def shell_commands(name: str, args: Any) -> list[SimpleCommand]:
    """The simple commands a shell tool's call runs; [] for any other tool."""
    if not isinstance(args, dict) or not _is_shell(name):
        return []
    value = args.get("command", args.get("cmd", args.get("script")))
    if value is None and isinstance(args.get("action"), dict):  # OpenAI's local_shell: {"action": {"command": [...]}}
        value = args["action"].get("command")
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return list(_parsed(" ".join(_quoted(v) for v in value)))
    return list(_parsed(value)) if isinstance(value, str) else []


@lru_cache(maxsize=4096)
def _parsed(line: str) -> tuple[SimpleCommand, ...]:
    """A call's command line read once, however many rules ask about it."""
    return tuple(simple_commands(line))


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'" if word == "" or re.search(r"[^\w@%+=:,./-]", word) else word


def edited_paths(name: str, args: Any) -> list[tuple[str, str]]:
    """(path, how) for each file an editing tool's call writes ("modify") or removes ("delete")."""
    if not isinstance(args, dict):
        return []
    if name in ("apply_patch", "patch"):
        text = next((v for v in (args.get("input"), args.get("patch"), args.get("diff")) if isinstance(v, str)), "")
        return [((m.group(2) or m.group(3)).strip(), "delete" if m.group(1) == "Delete" else "modify")
                for m in _PATCH_PATH.finditer(text)]
    if args.get("command") == "view":  # str_replace_based_edit_tool's read
        return []
    path = next((args[k] for k in _PATH_KEYS if isinstance(args.get(k), str)), None)
    return [(path, "modify")] if path else []


def _is_sql_tool(name: str) -> bool:
    return any(w in name for w in ("sql", "query", "database")) or name.startswith("db_")


def _strings(args: Any, depth: int = 0) -> list[str]:
    """Every string in a call's arguments (as deep as call_input reads: a hostile nesting is cut)."""
    if isinstance(args, str):
        return [args]
    if depth >= MAX_DEPTH:
        return []
    if isinstance(args, dict):
        return [s for v in args.values() for s in _strings(v, depth + 1)]
    if isinstance(args, list):
        return [s for v in args for s in _strings(v, depth + 1)]
    return []


def _shown(argv: tuple[str, ...]) -> str:
    text = " ".join(_quoted(a) for a in argv)
    return text if len(text) <= 200 else text[:199] + "…"


_ON_BRANCH = re.compile(r"^On branch (\S+)\s*$", re.M)
_BRANCH_NAME = re.compile(r"^\s*([\w./-]+)\s*$")


def asks_branch(tool: str | None, args: Any) -> bool:
    """The call runs ``git status``, ``git branch --show-current`` or ``git rev-parse --abbrev-ref HEAD``:
    its result names the branch the repository is on."""
    return any(_branch_query(c.argv) for c in shell_commands((tool or "").lower(), args))


def _branch_query(argv: tuple[str, ...]) -> str:
    if not argv or argv[0] != "git":
        return ""
    sub, tail = git_sub(list(argv))
    if sub == "status":
        return "status"
    if (sub == "branch" and "--show-current" in tail) or (sub == "rev-parse" and "--abbrev-ref" in tail):
        return "name"
    return ""


def branch_in_result(tool: str | None, args: Any, text: str | None) -> str | None:
    """The branch a ``git status`` result names ("On branch main"), or the name a ``git branch
    --show-current`` printed alone; None when the result does not say it."""
    if not text:
        return None
    queries = {_branch_query(c.argv) for c in shell_commands((tool or "").lower(), args)} - {""}
    if "status" in queries:
        m = _ON_BRANCH.search(text)
        if m:
            return m.group(1).lower()
    if "name" in queries and len(queries) == 1:
        m = _BRANCH_NAME.match(text)
        if m and m.group(1) != "HEAD":
            return m.group(1).lower()
    return None


def branch_after(tool: str | None, args: Any, branch: str | None) -> str | None:
    """The branch the repository is on after this call, as its ``git checkout``/``git switch`` say
    (``branch``: before it; None: not known)."""
    for c in shell_commands((tool or "").lower(), args):
        branch = branch_switch(c.argv) or branch
    return branch


def _command(act: RuleAct, c: SimpleCommand, at: str | None, branch: str | None = None) -> CallAct | None:
    if not c.argv:
        return None
    if act.kind == "command":
        found = _command_form(act, c)
    elif act.kind == "push":
        found = _push(act, c, branch)
    elif act.kind in ("drop", "delete", "modify") and c.argv[0] in ("psql", "mysql", "sqlite3", "mariadb", "duckdb"):
        found = next((r for r in (_sql_act(act, s) for s in sql_statements(sql_of_call(c.argv))) if r), None)
        if found is None and act.kind != "drop":
            found = _targets(act, c)
    else:
        found = _targets(act, c) if act.kind in ("delete", "modify", "drop") else kind_act(act, c, at, branch)
    if found is None:
        return None
    why = found.reason
    if c.unsure and found.verdict == "against":
        return CallAct("unsure", found.matched, _shown(c.argv), c.unsure)
    if found.verdict != "unsure" and dry_run(c.argv):
        return CallAct("dry_run", found.matched, _shown(c.argv), "a dry run: the call asks only to show what it would do")
    return CallAct(found.verdict, found.matched, _shown(c.argv), why + (" (run through another command's text)"
                                                                         if c.nested and not why else ""))


def _command_form(act: RuleAct, c: SimpleCommand) -> CallAct | None:
    """A rule written as a command: its first word is the call's command (or a wrapper it peeled,
    "sudo"), its flags are among the call's, its other words follow in order."""
    head, *rest = act.command
    if head in c.wrappers:
        return CallAct("against", (head,), "", "")
    if head.startswith("-"):  # "do not use --no-verify": the flag, on whatever command
        flags = [w for w in act.command if w.startswith("-")]
        if all(any(a.lower() == f or a.lower().startswith(f + "=") for a in c.argv[1:]) for f in flags):
            return CallAct("against", (c.argv[0], *flags), "", "")
        return None
    argv = list(c.argv)
    if head != argv[0]:
        return None
    if head == "git":
        sub, tail = git_sub(argv)
        argv = ["git", *([sub] if sub else []), *tail]
    flags = [w for w in rest if w.startswith("-")]
    words = [w for w in rest if not w.startswith("-")]
    have = {x.lower() for x in short_letters(argv[1:], argv[0])}  # the rule's words are lower-cased (-A: -a)
    for f in flags:
        if f.startswith("--"):
            if not any(a.lower() == f or a.lower().startswith(f + "=") for a in argv[1:]):
                return None
        elif not set(f[1:].lower()) <= have:
            return None
    pos = positionals(argv[1:])
    i, matched = 0, [head, *flags]
    for w in words:
        while i < len(pos) and pos[i].lower() != w:
            i += 1
        if i >= len(pos):
            if len(pos) < len(words):
                return CallAct("unsure", tuple(matched), "", f"the call names no {w!r}: what it acts on is not in it")
            return None
        matched.append(pos[i])
        i += 1
    if act.scope:
        tokens = argv_words(argv[1:])
        missing = [s for s in act.scope if s not in tokens]
        if missing:
            return CallAct("unsure", tuple(matched), "", f"the rule says {' '.join(act.scope)!r}; the call does not "
                           f"name {missing[0]!r} (it may act there by default)")
        matched += list(act.scope)
    return CallAct("against", tuple(matched), "", "")


def _push(act: RuleAct, c: SimpleCommand, branch: str | None = None) -> CallAct | None:
    """``git push``: its remote and the branches its refspecs write (``HEAD:main``, ``+main``,
    ``refs/heads/main``), forced or not."""
    if c.argv[0] != "git":
        return None
    sub, tail = git_sub(list(c.argv))
    if sub != "push":
        return None
    letters = short_letters(tail, "git-push")
    pos = positionals(tail, takes_value=("--repo", "-o", "--push-option", "--receive-pack", "--exec"))
    forced = "f" in letters or any(a == "--force" or a.startswith("--force-with-lease") or a == "--force-if-includes"
                                   for a in tail) or any(p.startswith("+") for p in pos[1:])
    if act.force and not forced:
        return None
    remote, refspecs = (pos[0] if pos else None), pos[1:]
    dests = {_dest(r) for r in refspecs}
    matched = ["git", "push"] + (["--force"] if act.force else [])
    if not act.objects:
        return CallAct("against", tuple(matched), "", "")
    if act.vague:  # "on shared branches": which branches those are is not in the call
        return CallAct("unsure", tuple(matched + sorted(dests)), "", f"the rule names {' '.join(act.objects)} "
                       "branches; whether the call's are among them is not in it")
    hits = [o for o in act.objects if o in dests or o == remote]
    if len(hits) == len(act.objects):
        return CallAct("against", tuple(matched + hits), "", "")
    if any(o in dests for o in act.objects):
        return CallAct("unsure", tuple(matched + hits), "", f"pushes {' '.join(hits)} to the remote {remote!r}, "
                       f"not the one the rule names")
    if any(a in ("--all", "--mirror", "--branches") for a in tail):
        return CallAct("unsure", tuple(matched), "", "pushes every branch, which may include "
                       + " ".join(act.objects))
    if not refspecs and branch is not None:  # the current branch, as an earlier checkout chose it
        if branch in act.objects:
            return CallAct("against", tuple(matched + [branch]), "", "")
        return None
    if not refspecs:
        return CallAct("unsure", tuple(matched), "", "pushes the current branch (or its upstream), which the call "
                       "does not name: it may be " + " ".join(act.objects))
    return None


def _dest(refspec: str) -> str:
    ref = refspec.lstrip("+")
    ref = ref.split(":", 1)[1] if ":" in ref else ref
    return ref.removeprefix("refs/heads/").lower()


def _path_act(act: RuleAct, path: str, how: str) -> CallAct | None:
    if act.kind == "delete" and how != "delete":
        return None
    found = _on_target(act, [path])
    if found is None:
        return None
    return CallAct(found.verdict, found.matched, path, found.reason)


def _sql_act(act: RuleAct, stmt: tuple[str, str, str]) -> CallAct | None:
    op, table, text = stmt
    wanted = {"drop": ("drop", "truncate"), "delete": ("delete", "drop", "truncate"),
              "modify": ("update", "insert", "delete", "alter", "drop", "truncate")}[act.kind]
    if op not in wanted:
        return None
    name = table.strip('"`[]').rsplit(".", 1)[-1].lower()
    if act.objects and not all(o == name for o in act.objects):
        return None
    return CallAct("against", (op.upper(), table), text[:200], "")


def _targets(act: RuleAct, c: SimpleCommand) -> CallAct | None:
    """A delete or modify command (``rm``, ``git branch -D``, ``sed -i``, ``> file``…) on the rule's
    object: the target named exactly is ✗, a path inside it (``build/*``) is ?."""
    found = targets_of(act.kind, c)
    if found is None:
        return None
    verb, targets = found
    if not targets:
        return CallAct("unsure", (verb,), "", "its targets are not in the call") if not act.objects or c.unsure else None
    hit = _on_target(act, targets)
    if hit is None:
        return None
    return CallAct(hit.verdict, (verb, *hit.matched), "", hit.reason)


def _on_target(act: RuleAct, targets: list[str]) -> CallAct | None:
    if not act.objects:
        return CallAct("against", tuple(targets[:3]), "", "")
    if targets == ["*"]:  # git clean with no path: every untracked file, whichever they are
        return CallAct("unsure", ("*",), "", "removes every untracked file, which may include "
                       + " ".join(act.objects))
    exact: list[str] = []
    inside: list[str] = []
    stems: list[str] = []
    for t in targets:
        path = t.strip().rstrip("/").removeprefix("./").lower()
        parts = [p for p in path.split("/") if p]
        base = parts[-1] if parts else path
        named = [_names(path, base, o) for o in act.objects]  # every object word must name the target
        if all(n == "exact" for n in named):
            exact.append(t)
        elif all(n in ("exact", "inside") for n in named):
            inside.append(t)
        elif all(named):
            stems.append(t)
    if exact:
        return CallAct("against", tuple(dict.fromkeys(exact)), "", "")
    if inside and act.kind == "modify":  # writing a file inside the folder the rule names is writing there
        return CallAct("against", tuple(dict.fromkeys(inside)), "", "")
    if inside:
        return CallAct("unsure", tuple(dict.fromkeys(inside)), "", f"acts on a path inside {act.objects[0]!r}, "
                       "not on it whole")
    if stems:  # "README" and README.md, "tests" and tests.out: the name without its extension
        return CallAct("unsure", tuple(dict.fromkeys(stems)), "", f"acts on {stems[0]!r}, whose name less its "
                       f"extension is the rule's {' '.join(act.objects)!r}: the same file or another")
    return None


def _names(path: str, base: str, word: str) -> str:
    """How a target path names an object word: "exact" (it is the thing: ``build``, ``/a/build``,
    ``.env``, ``package.json``), "inside" (a path under it: ``build/app.o``), "stem" (its name less
    the extension: ``README.md`` for "README"), or ""."""
    if path == word or path.endswith("/" + word) or base.lstrip(".") == word:
        return "exact"
    parts = path.split("/")
    if word in parts[:-1] or ("/" in word and ("/" + word + "/") in ("/" + path + "/")):
        return "inside"
    if "." in base.lstrip(".") and base.rsplit(".", 1)[0] == word:
        return "stem"
    return ""


def args_text(args: Any) -> str:
    """A call's arguments as one line, for a reader's eye only."""
    return json.dumps(args, ensure_ascii=False, sort_keys=True)[:200]


__all__ = ["EDIT_TOOLS", "RANK", "SHELL_TOOLS", "CallAct", "asks_branch", "branch_after", "branch_in_result",
           "call_act", "edited_paths", "shell_commands"]
