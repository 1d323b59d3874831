"""The parts of a command a rule check reads: git's subcommand past its global options, positional
words past flags, short flags as letters, the paths a delete or modify command acts on, the SQL a
database call sends, and whether the call asks for a dry run. Pure, stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.domain.shell_words import SimpleCommand

_GIT_VALUE_OPTIONS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"})
_LONG_LETTERS = {"--recursive": "r", "--force": "f", "--dry-run": "n"}
_SQL = re.compile(
    r"^\s*(?:(?P<drop>drop)\s+(?:table|database|schema|view|index|collection)\s+(?:if\s+exists\s+)?"
    r"|(?P<truncate>truncate)\s+(?:table\s+)?|(?P<delete>delete)\s+from\s+|(?P<update>update)\s+"
    r"|(?P<insert>insert)\s+into\s+|(?P<alter>alter)\s+table\s+)(?P<name>[\w.\"`\[\]]+)", re.I)
_DRY = frozenset({"--dry-run", "--dryrun", "--dry_run", "--what-if", "--whatif", "--noop", "--simulate"})
_DRY_N = frozenset({("git", "push"), ("git", "clean"), ("git", "add"), ("git", "rm"), ("git", "mv"), ("rsync", ""),
                    ("make", "")})


@dataclass(frozen=True, slots=True)
class CallAct:
    verdict: str  # "against" (✗), "unsure" (?), "dry_run"
    matched: tuple[str, ...]  # the call's words that did the act
    ran: str  # the command or path as the call has it (one simple command)
    reason: str  # why unsure or dry run; "" when against


def git_sub(argv: list[str]) -> tuple[str, list[str]]:
    """git's subcommand and its words, past git's own options (``git -C repo push`` → push)."""
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in _GIT_VALUE_OPTIONS else 1
    return (argv[i], argv[i + 1:]) if i < len(argv) else ("", [])


def branch_switch(argv: tuple[str, ...]) -> str | None:
    """The branch a ``git checkout`` / ``git switch`` moves to (``-b``/``-c`` new ones too), or None;
    ``git checkout -- file`` and a checkout of paths move nowhere."""
    if not argv or argv[0] != "git":
        return None
    sub, tail = git_sub(list(argv))
    if sub not in ("checkout", "switch") or "--" in tail:
        return None
    for i, a in enumerate(tail):
        if a in ("-b", "-B", "-c", "-C", "--create", "--force-create") and i + 1 < len(tail):
            return tail[i + 1].lower()
    pos = positionals(tail, takes_value=("--track", "-t", "--orphan"))
    return pos[0].lower() if len(pos) == 1 else None


def positionals(words: list[str] | tuple[str, ...], takes_value: tuple[str, ...] = ()) -> list[str]:
    """The words that are not flags (nor a flag's value, for the flags named), past ``--`` all."""
    out: list[str] = []
    skip = False
    rest = False
    for w in words:
        if skip:
            skip = False
        elif rest or not w.startswith("-") or w == "-":
            out.append(w)
        elif w == "--":
            rest = True
        elif w in takes_value:
            skip = True
    return out


def short_letters(words: list[str] | tuple[str, ...], command: str) -> set[str]:
    """Every short flag's letter (``-rf``, ``-r -f``, ``--recursive --force``: r, f); ``-R`` is ``-r``
    for rm, cp and chmod."""
    out: set[str] = set()
    for w in words:
        if w == "--":
            break
        if re.fullmatch(r"-[A-Za-z]+", w):
            out |= set(w[1:])
        elif w.split("=", 1)[0] in _LONG_LETTERS:
            out.add(_LONG_LETTERS[w.split("=", 1)[0]])
    if command in ("rm", "cp", "chmod", "chown") and "R" in out:
        out.add("r")
    return out


def argv_words(words: list[str] | tuple[str, ...]) -> set[str]:
    """The call's words split at ``= : / , @ .`` (``--context=prod-eu`` holds "prod-eu" and
    "--context"), lower-cased: for a rule's scope word to be looked up exactly."""
    out: set[str] = set()
    for w in words:
        low = w.lower()
        out.add(low)
        out |= {p for p in re.split(r"[=:/,@.\s]+", low) if p}
    return out


def dry_run(argv: tuple[str, ...]) -> bool:
    """The command asks only to show what it would do (``--dry-run``, ``git push -n``,
    ``kubectl … --dry-run=client``; ``--dry-run=none`` is a real run)."""
    for w in argv[1:]:
        name, _, value = w.partition("=")
        if name in _DRY and value.lower() not in ("none", "false", "0"):
            return True
    sub = git_sub(list(argv))[0] if argv[0] == "git" else ""
    if (argv[0], sub) in _DRY_N:
        tail = argv[2:] if sub else argv[1:]
        return "n" in {c for w in tail if re.fullmatch(r"-[A-Za-z]+", w) for c in w[1:]}
    return False


def sql_statements(texts: list[str]) -> list[tuple[str, str, str]]:
    """(operation, table, statement) for each data-changing SQL statement in ``texts``."""
    out: list[tuple[str, str, str]] = []
    for text in texts:
        for stmt in text.split(";"):
            m = _SQL.match(stmt)
            if m:
                op = next(k for k in ("drop", "truncate", "delete", "update", "insert", "alter") if m.group(k))
                out.append((op, m.group("name"), " ".join(stmt.split())))
    return out


def sql_of_call(argv: tuple[str, ...]) -> list[str]:
    """The SQL a database client's command line sends (``psql -c``, ``mysql -e``, ``sqlite3 db 'SQL'``)."""
    out: list[str] = []
    for i, w in enumerate(argv[1:], 1):
        if w in ("-c", "-e", "--command", "--execute") and i + 1 < len(argv):
            out.append(argv[i + 1])
        elif w.startswith(("--command=", "--execute=")):
            out.append(w.split("=", 1)[1])
    if argv[0] in ("sqlite3", "duckdb"):
        pos = positionals(argv[1:], takes_value=("-cmd", "-separator", "-init"))
        out += pos[1:]
    return out


def targets_of(kind: str, c: SimpleCommand) -> tuple[str, list[str]] | None:
    """(the command's verb, its targets) when ``c`` deletes (``kind`` "delete") or writes
    ("modify") something; None when it does neither."""
    argv = c.argv
    head = argv[0]
    if kind in ("delete", "drop"):
        if head in ("rm", "rmdir", "unlink", "shred", "trash", "trash-put"):
            return head, positionals(argv[1:])
        if head == "git":
            sub, tail = git_sub(list(argv))
            if sub == "rm":
                return "git rm", positionals(tail)
            if sub == "branch" and any(a in ("-d", "-D", "--delete") or re.fullmatch(r"-[a-zA-Z]*[dD][a-zA-Z]*", a)
                                       for a in tail):
                return "git branch -D", positionals(tail)
            if sub == "clean" and {"f", "n"} & short_letters(tail, "git"):  # -f removes, -n shows (a dry run)
                return "git clean", positionals(tail, takes_value=("-e", "--exclude")) or ["*"]
            if sub == "push" and ("--delete" in tail or "-d" in tail):
                return "git push --delete", positionals(tail)[1:]
            if sub == "push" and any(p.startswith(":") for p in positionals(tail)[1:]):
                return "git push :", [p[1:] for p in positionals(tail)[1:] if p.startswith(":")]
            return None
        if head in ("kubectl", "docker", "helm") and len(argv) > 1:
            pos = positionals(argv[1:], takes_value=("-n", "--namespace", "--context", "-f", "--filename", "-l"))
            if pos[:1] in (["delete"], ["rm"], ["rmi"], ["uninstall"]):
                return f"{head} {pos[0]}", pos[1:] + [v for k, v in zip(argv, argv[1:], strict=False) if k in ("-f", "--filename")]
            if len(pos) > 1 and pos[1] in ("rm", "prune") and pos[0] in ("volume", "image", "container", "network"):
                return f"{head} {pos[0]} {pos[1]}", pos[2:]
        if head == "find" and "-delete" in argv:
            return "find -delete", positionals(argv[1:])[:1]
        if head == "dropdb":
            return "dropdb", positionals(argv[1:])
        return None
    if kind == "modify":
        writes = [t for op, t in c.redirects if op in (">", ">>", ">|") and t not in ("/dev/null", "/dev/stderr")]
        if writes:
            return ">", writes
        if head == "sed" and any(a == "-i" or a.startswith(("-i", "--in-place")) for a in argv[1:]):
            pos = positionals(argv[1:], takes_value=("-e", "-f"))
            has_script = any(a in ("-e", "-f") for a in argv[1:])
            return "sed -i", pos if has_script else pos[1:]
        if head in ("tee", "touch", "truncate", "chmod", "chown", "rm"):
            pos = positionals(argv[1:], takes_value=("-s", "--size"))
            return head, pos[1:] if head in ("chmod", "chown") else pos
        if head in ("mv", "cp", "install", "ln"):
            pos = positionals(argv[1:], takes_value=("-t", "--target-directory"))
            return head, pos[-1:]
    return None


__all__ = ["CallAct", "argv_words", "branch_switch", "dry_run", "git_sub", "positionals", "short_letters", "sql_of_call",
           "sql_statements", "targets_of"]
