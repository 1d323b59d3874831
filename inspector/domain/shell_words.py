"""A shell command line read as the commands it runs: each simple command's words, as the shell
would pass them, and nothing a command only prints, searches for or comments on.

An agent's Bash call is the one place its *act* is written exactly. ``git push origin main`` runs
git; ``echo "git push origin main"``, ``grep -r 'rm -rf' .`` and ``# git push later`` do not —
the words are there but the act is not. So a rule check reads a call by its commands, never by its
words: quotes make one word (``"rm -rf"`` is an argument of grep, not a command), ``;``, ``&&``,
``||``, ``|``, ``&``, parentheses and line breaks end a command, ``#`` at a word's start begins a
comment, a here-document's body is data (read as commands only when a shell or ssh reads it),
redirections (``> out.txt``) are kept apart from the words, and ``VAR=x``, ``sudo``, ``env``,
``nohup``, ``time``, ``timeout``, ``nice``, ``command``, ``exec`` are peeled off the front.
``bash -c '…'``, ``sh -c``, ``eval``, ``ssh host '…'`` and ``$(…)``/backticks run their text, so
it is read as commands too (``nested``); what this reader cannot follow — ``xargs`` (its arguments
come from its input), a text it cannot split (an unclosed quote) — is said in ``unsure``, never
dropped. Pure, stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SEPARATORS = (";;", "&&", "||", "|&", ";", "|", "&", "(", ")", "\n")
_REDIRECT = re.compile(r"(?:\d*|&)(?:>>|>\||>&|<<<|<<-|<<|<>|>|<)")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish"})
_PLAIN_WRAPPERS = frozenset({"nohup", "command", "exec", "builtin", "time", "stdbuf", "unbuffer", "caffeinate"})
_SUBST = re.compile(r"\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)|`([^`]*)`")
_KEYWORDS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "fi", "done", "esac"})
_PLAIN = re.compile(r"[^\s'\"\\$`#;&|()<>]+")
MAX_DEPTH = 6  # bash -c "bash -c '…'" nesting followed at most this deep


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    quoted: bool  # some of it stood in quotes (a quoted "#x" is no comment)
    literal: bool = False  # all of it stood in single quotes: a "$(…)" in it runs nothing


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    """One command the line runs: its words (wrappers peeled off), where its output or input goes,
    and why the reading may be short of the truth."""

    argv: tuple[str, ...]
    redirects: tuple[tuple[str, str], ...] = ()  # (operator, target): (">", "out.txt")
    nested: bool = False  # read from a text another command runs (bash -c, ssh, $(…))
    unsure: str = ""  # "" when the words are exactly what runs
    wrappers: tuple[str, ...] = ()  # what was peeled off the front: ("sudo",)


def simple_commands(line: str, depth: int = 0) -> list[SimpleCommand]:
    """The simple commands ``line`` runs, in order (see the module's docstring)."""
    try:
        words, heredocs = _tokens(line)
    except ValueError as exc:  # an unclosed quote: say so with what can be read
        return [SimpleCommand(tuple(line.split()), unsure=f"the command could not be split ({exc})")]
    out: list[SimpleCommand] = []
    current: list[Word] = []
    redirects: list[tuple[str, str]] = []
    pending_redirect: str | None = None
    heredoc_index = 0
    for item in [*words, None]:
        if item is None or (isinstance(item, str) and item in _SEPARATORS):
            if current or redirects:
                body = None
                if any(op in ("<<", "<<-") for op, _ in redirects) and heredoc_index < len(heredocs):
                    body = heredocs[heredoc_index]
                    heredoc_index += 1
                out += _commands_of(current, tuple(redirects), depth, body)
            current, redirects, pending_redirect = [], [], None
            continue
        if isinstance(item, str):  # a redirection operator
            pending_redirect = item
            continue
        if pending_redirect is not None:
            redirects.append((pending_redirect, item.text))
            pending_redirect = None
            continue
        current.append(item)
    return out


def _commands_of(words: list[Word], redirects: tuple[tuple[str, str], ...], depth: int,
                 heredoc: str | None) -> list[SimpleCommand]:
    """One simple command's words, wrappers peeled; the texts it runs read as commands too."""
    out: list[SimpleCommand] = []
    for w in words:  # $(…) and `…` run wherever they stand outside single quotes
        for m in () if w.literal else _SUBST.finditer(w.text):
            if depth < MAX_DEPTH:
                out += [_nested(c, "") for c in simple_commands(m.group(1) or m.group(2) or "", depth + 1)]
    argv = [w.text for w in words]
    unsure = ""
    peeled: list[str] = []
    if argv[:1] in (["for"], ["select"], ["case"]):  # "for w in rm -rf": the words are data; its body runs after "do"
        return out
    while argv and argv[0] in _KEYWORDS:  # "do rm -rf x", "then git push …": the command follows the keyword
        argv = argv[1:]
    while argv:
        head = argv[0].rsplit("/", 1)[-1]
        if not _ASSIGNMENT.match(argv[0]):
            peeled.append(head)
        if _ASSIGNMENT.match(argv[0]):
            argv = argv[1:]
        elif head in _PLAIN_WRAPPERS:
            argv = argv[1:]
        elif head == "sudo" or head == "doas":
            argv = _after_options(argv[1:], takes_value=frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t"}))
        elif head == "env":
            rest = _after_options(argv[1:], takes_value=frozenset({"-u", "-C", "-S"}))
            while rest and _ASSIGNMENT.match(rest[0]):
                rest = rest[1:]
            argv = rest
        elif head == "nice":
            argv = _after_options(argv[1:], takes_value=frozenset({"-n"}))
        elif head == "timeout":
            rest = _after_options(argv[1:], takes_value=frozenset({"-s", "-k", "--signal", "--kill-after"}))
            argv = rest[1:]  # the duration
        elif head == "xargs":
            argv = _after_options(argv[1:], takes_value=frozenset({"-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a"}))
            unsure = "run through xargs: the arguments come from its input, not the call"
        else:
            peeled.pop()
            break
    if not argv:
        return out
    head = argv[0].rsplit("/", 1)[-1]
    if head == "find":  # find … -exec rm -rf {} +: a command run on what find finds
        out += _find_exec(argv)
    script = _script_of(head, argv, heredoc)
    if script is not None and depth < MAX_DEPTH:
        return out + [_nested(c, unsure) for c in simple_commands(script, depth + 1)]
    if script is not None:  # nested past what is followed: its words past the shells, said to be unsure
        words = script.replace("'", " ").replace('"', " ").replace("\\", " ").split()
        while words and (words[0] in _SHELLS or words[0].startswith("-")):
            words = words[1:]
        return out + [SimpleCommand(tuple(words), nested=True,
                                    unsure=f"run through more than {MAX_DEPTH} nested shells: read as words")]
    return [SimpleCommand((head, *argv[1:]), redirects, unsure=unsure, wrappers=tuple(peeled)), *out]


def _find_exec(argv: list[str]) -> list[SimpleCommand]:
    """The commands ``find`` runs through ``-exec``/``-execdir``/``-ok`` (up to ``;`` or ``+``): their
    targets are what find finds, not in the call."""
    out: list[SimpleCommand] = []
    for i, a in enumerate(argv):
        if a in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next((j for j in range(i + 1, len(argv)) if argv[j] in (";", "+")), len(argv))
            run = [w for w in argv[i + 1:end] if w != "{}"]
            if run:
                out.append(SimpleCommand((run[0].rsplit("/", 1)[-1], *run[1:]), nested=True,
                                         unsure="run by find on each file it finds: the targets are not in the call"))
    return out


def _script_of(head: str, argv: list[str], heredoc: str | None) -> str | None:
    """The text a shell, eval or ssh runs, or None when ``argv`` runs no text of its own."""
    if head in _SHELLS:
        for i, a in enumerate(argv[1:], 1):
            if a.startswith("-") and not a.startswith("--") and "c" in a[1:]:
                return argv[i + 1] if i + 1 < len(argv) else ""
            if not a.startswith("-"):
                return None  # bash script.sh: a file this reader cannot see
        return heredoc  # bash <<EOF … EOF, or a bare shell
    if head == "eval":
        return " ".join(argv[1:])
    if head == "ssh":
        rest = _after_options(argv[1:], takes_value=frozenset(
            {"-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-E", "-b", "-c", "-e", "-m", "-O", "-Q", "-S", "-W",
             "-w", "-B"}))
        if len(rest) > 1:
            return " ".join(rest[1:])
        return heredoc
    return None


def _nested(c: SimpleCommand, unsure: str) -> SimpleCommand:
    return SimpleCommand(c.argv, c.redirects, True, c.unsure or unsure, c.wrappers)


def _after_options(argv: list[str], takes_value: frozenset[str]) -> list[str]:
    """``argv`` past a wrapper's own options (``sudo -u deploy git …`` → ``git …``)."""
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "-":
        if argv[i] == "--":
            return argv[i + 1:]
        i += 2 if argv[i] in takes_value else 1
    return argv[i:]


def _tokens(line: str) -> tuple[list[Word | str], list[str]]:
    """Words (``Word``) and operators (str: separators and redirections), and the bodies of the
    line's here-documents in order. Raises ValueError on an unclosed quote."""
    out: list[Word | str] = []
    heredocs: list[str] = []
    waiting: list[tuple[str, bool]] = []  # here-document delimiters met on the current line
    i, n = 0, len(line)
    buf: list[str] = []
    quoted = False
    started = False
    parts: set[str] = set()  # how the word's parts were quoted: "'", '"', ""

    def flush() -> None:
        nonlocal buf, quoted, started, parts
        if started:
            out.append(Word("".join(buf), quoted, parts == {"'"}))
        buf, quoted, started, parts = [], False, False, set()

    while i < n:
        ch = line[i]
        if ch == "\n" and waiting:  # the here-documents' bodies follow this line
            flush()
            out.append("\n")
            i += 1
            for delim, strip_tabs in waiting:
                body: list[str] = []
                while i < n:
                    end = line.find("\n", i)
                    row = line[i:] if end < 0 else line[i:end]
                    i = n if end < 0 else end + 1
                    if (row.lstrip("\t") if strip_tabs else row) == delim:
                        break
                    body.append(row)
                heredocs.append("\n".join(body))
            waiting = []
            continue
        if ch in " \t\r":
            flush()
            i += 1
        elif ch == "#" and not started:
            end = line.find("\n", i)
            i = n if end < 0 else end
        elif ch == "\\":
            if i + 1 < n and line[i + 1] == "\n":
                i += 2  # a line continued
                continue
            buf.append(line[i + 1] if i + 1 < n else "")
            parts.add("")
            started, i = True, i + 2
        elif ch == "'":
            end = line.find("'", i + 1)
            if end < 0:
                raise ValueError("no closing quotation")
            buf.append(line[i + 1:end])
            parts.add("'")
            started, quoted, i = True, True, end + 1
        elif ch == '"':
            j, part = i + 1, []
            while j < n and line[j] != '"':
                if line[j] == "\\" and j + 1 < n and line[j + 1] in '"\\$`\n':
                    part.append(line[j + 1])
                    j += 2
                else:
                    part.append(line[j])
                    j += 1
            if j >= n:
                raise ValueError("no closing quotation")
            buf.append("".join(part))
            parts.add('"')
            started, quoted, i = True, True, j + 1
        elif ch == "`":  # a backquoted command stays whole inside the word
            end = line.find("`", i + 1)
            if end < 0:
                raise ValueError("no closing backquote")
            buf.append(line[i:end + 1])
            parts.add("")
            started, i = True, end + 1
        elif ch == "$" and line.startswith("$(", i):  # keep $( … ) whole inside the word
            depth, j = 0, i + 1
            while j < n:
                depth += {"(": 1, ")": -1}.get(line[j], 0)
                j += 1
                if depth == 0:
                    break
            buf.append(line[i:j])
            parts.add("")
            started, i = True, j
        else:
            m = _REDIRECT.match(line, i) if ch in "<>&" else None
            if m:
                op = m.group()
                if started and not "".join(buf).isdigit():
                    flush()  # "a>b": the word, then the redirection
                buf, quoted, started = [], False, False
                out.append(op.lstrip("0123456789&") or op)
                i = m.end()
                if op.endswith(("<<", "<<-")):
                    delim, i = _heredoc_word(line, i)
                    waiting.append((delim, op.endswith("-")))
                    out.append(Word(delim, True))
                continue
            op = next((s for s in _SEPARATORS if line.startswith(s, i)), None)
            if op is not None:
                flush()
                out.append(op)
                i += len(op)
            else:  # a run of plain characters at once: a 2 MB argument is not read one character a step
                run = _PLAIN.match(line, i)
                end = run.end() if run else i + 1
                buf.append(line[i:end])
                parts.add("")
                started, i = True, end
    flush()
    return out, heredocs


def _heredoc_word(line: str, i: int) -> tuple[str, int]:
    """A here-document's delimiter word after ``<<`` (quotes removed), and where it ends."""
    while i < len(line) and line[i] in " \t":
        i += 1
    m = re.match(r"'([^']*)'|\"([^\"]*)\"|([^\s;&|()<>]+)", line[i:])
    if not m:
        return "", i
    return (m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)), i + m.end()


__all__ = ["SimpleCommand", "simple_commands"]
