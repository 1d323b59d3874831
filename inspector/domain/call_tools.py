"""Tools other than a shell or an editor, read by their name and arguments — only where the mapping
is exact: ``mcp__github__push_files`` with ``"branch": "main"`` pushes to main; ``kubectl_delete`` is
``kubectl delete``; ``deploy_service`` with ``"environment": "production"`` deploys to production.

A tool's name says the act when one of its words (split at ``_``, ``-``, ``.``) is the act's verb
("push", "delete", "deploy"…; for a command rule, every word of the command); its arguments say the
target when a value equals the rule's object word (``refs/heads/main`` is ``main``, a path's last
part is the file). A name that says the act and arguments that name another target (``"branch":
"dev"``) are not the act; a version-control tool (``git``, ``github``… in its name) that says a
push, merge or commit with no target argument at all is ``unsure`` ("?"); any other tool naming no
target is not read (``delete_message`` deletes no folder; ``send_push_notification`` pushes no
branch). Pure, stdlib only.
"""

from __future__ import annotations

import re
from typing import Any

from inspector.domain.call_kinds import service_verbs
from inspector.domain.call_targets import CallAct
from inspector.domain.rule_acts import RuleAct

# a push, merge or commit tool is one of a version-control host's: its name says so
_VCS = frozenset("git github gitlab bitbucket gitea repo repository branch pr pull".split())
_VERBS = {"push": {"push"}, "delete": {"delete", "remove", "rm", "destroy"}, "drop": {"drop", "truncate"},
          "deploy": {"deploy", "publish", "release"}, "merge": {"merge"}, "install": {"install"},
          "commit": {"commit"}}
TARGET_KEYS = frozenset({"branch", "ref", "head", "base", "target_branch", "name", "path", "file_path", "file",
                         "table", "service", "target", "environment", "env", "namespace", "package", "packages",
                         "stage", "cluster", "database", "db"})


def tool_act(act: RuleAct, name: str, args: Any) -> CallAct | None:
    """``act`` read in a call of the tool ``name`` (lower-cased) with ``args``, or None."""
    words = {w for w in re.split(r"[^a-z0-9]+", name) if w}
    if act.kind == "command":
        needed = [w for w in act.command if not w.startswith("-")]
        if len(needed) < 2 or not set(needed) <= words:
            return None
        if any(w.startswith("-") for w in act.command):
            return CallAct("unsure", tuple(needed), name, f"the rule names {' '.join(act.command)!r}; a tool's "
                           "arguments do not show its flags")
        missing = [s for s in act.scope if s not in _values(args)]
        if missing:
            return CallAct("unsure", tuple(needed), name, f"the call does not name {missing[0]!r}")
        return CallAct("against", (name, *act.scope), name, "")
    verbs = set(service_verbs(act.verb)) if act.kind == "restart" else _VERBS.get(act.kind, set())
    if not verbs & words:
        return None
    if act.kind in ("push", "merge", "commit") and not _VCS & words:
        return None  # "send_push_notification" pushes no branch
    said = next(iter(verbs & words))
    if not act.objects:
        return CallAct("against", (name,), name, "")
    values = _values(args)
    if all(o in values for o in act.objects):
        return CallAct("against", (name, *act.objects), name, "")
    if isinstance(args, dict) and any(k.lower() in TARGET_KEYS for k in args):
        return None  # it names its target, and it is another
    if act.kind not in ("push", "merge", "commit"):
        return None  # "delete_message": a verb this generic names no kind of target the rule's is
    return CallAct("unsure", (name,), name, f"a {said} call naming no branch: it may act on "
                   + " ".join(act.objects))


def _values(args: Any) -> set[str]:
    """The call's top-level string values (and lists of strings), lower-cased, with a branch's
    ``refs/heads/`` and a path's folders dropped as well."""
    out: set[str] = set()
    items = args.values() if isinstance(args, dict) else []
    for v in items:
        for s in (v if isinstance(v, list) else [v]):
            if isinstance(s, str):
                low = s.lower()
                out |= {low, low.removeprefix("refs/heads/"), low.rstrip("/").rsplit("/", 1)[-1]}
    return out


__all__ = ["TARGET_KEYS", "tool_act"]
