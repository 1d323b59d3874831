"""A protected name changed by letters: "prod-dc-2" for "prod-db-2", "users_table" for
"user_table", "hooks_claudecode_handler.go" for "…handlers.go" (verdict-eight).

``said_renamed`` reads a digit changed or swapped and leaves letters alone: a letter off is as
often a plural in prose or another real thing ("the handlers", a test file beside the source).
What tells the two apart is the session's own log. A name here must

- have an identifier's shape — a path, a file with an extension, snake_case, kebab-case with a
  digit, five characters or more — and differ from an identifier of a kept value by one or two edits (one
  below ten characters) of which at least one is a letter (digits are ``said_renamed``'s); a
  path is also compared by its last part ("handler.go" for "cli/handlers.go"); a plural or
  singular at the very end ("user_tables" for "user_table") is not read: prose says it too;
- stand nowhere in the session's events (a file that really exists there is another file) nor in
  another protected value;
- stand in a sentence naming the value's subject (``said_renamed``'s reading) that does not deny it.

Then the summary tells a reader another host, table or file than the rule's: ``protected_negated``
(survival ``contradicted``). The value itself must be kept word for word elsewhere (else the
missing rules read the summary).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from inspector.domain.said import Said
from inspector.domain.said_renamed import Renamed, _clause, _subject
from inspector.domain.said_steps import denies
from inspector.domain.textnorm import norm

_TOKEN = re.compile(r"(?<![a-z0-9_./-])(/?[a-z0-9][a-z0-9_-]*(?:[./][a-z0-9_-]+)*)(?![a-z0-9_/-])")
_EXT = re.compile(r"\.[a-z][a-z0-9]{0,4}$")
_PLURAL = re.compile(r"e?s")


def _shaped(token: str) -> bool:
    """A path, a file, snake_case, or kebab-case with a digit ("prod-db-2"); a kebab compound of
    words alone ("health-check", "read-only") is prose."""
    return len(token) >= 5 and any(c.isalpha() for c in token) and (
        "_" in token or "/" in token or _EXT.search(token) is not None
        or ("-" in token and any(c.isdigit() for c in token)))


@lru_cache(maxsize=8192)
def names_of(value: str) -> tuple[str, ...]:
    """The value's identifier-shaped names, and the last part of each path."""
    out: list[str] = []
    for m in _TOKEN.finditer(norm(value)):
        t = m.group(1).rstrip(".")
        if _shaped(t):
            out.append(t)
            if "/" in t.strip("/") and _shaped(t.rsplit("/", 1)[1]):
                out.append(t.rsplit("/", 1)[1])
    return tuple(dict.fromkeys(out))


def _edits(a: str, b: str, most: int) -> list[tuple[str, str]] | None:
    """The edits (each a pair of the characters changed, "" for none) turning ``a`` into ``b``
    (insertions, deletions, substitutions, adjacent swaps), or None when more than ``most``."""
    if abs(len(a) - len(b)) > most:
        return None
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    a, b = a[i:], b[i:]
    j = 0
    while j < min(len(a), len(b)) and a[-1 - j] == b[-1 - j]:
        j += 1
    a, b = (a[:len(a) - j], b[:len(b) - j]) if j else (a, b)
    if not a and not b:
        return []
    if most == 0:
        return None
    options: list[list[tuple[str, str]] | None] = []
    if a and b:
        options.append(_prepend((a[0], b[0]), _edits(a[1:], b[1:], most - 1)))
        if len(a) >= 2 and len(b) >= 2 and a[0] == b[1] and a[1] == b[0]:
            options.append(_prepend((a[:2], b[:2]), _edits(a[2:], b[2:], most - 1)))
    if a:
        options.append(_prepend((a[0], ""), _edits(a[1:], b, most - 1)))
    if b:
        options.append(_prepend(("", b[0]), _edits(a, b[1:], most - 1)))
    found = [o for o in options if o is not None]
    return min(found, key=len) if found else None


def _prepend(edit: tuple[str, str], rest: list[tuple[str, str]] | None) -> list[tuple[str, str]] | None:
    return None if rest is None else [edit, *rest]


def letter_off(name: str, token: str) -> bool:
    """Whether ``token`` is ``name`` with one or two edits (one below ten characters), a letter
    among them."""
    if token == name or not _shaped(token) or (token.startswith(name) and _PLURAL.fullmatch(token, len(name))) \
            or (name.startswith(token) and _PLURAL.fullmatch(name, len(token))):
        return False  # "user_tables views": a plural at the end is prose as often as a name
    edits = _edits(name, token, 2 if len(name) >= 10 else 1)
    return bool(edits) and any(c.isalpha() for pair in edits for c in "".join(pair))


def misnamed(said: Said, value: str, others: tuple[str, ...], in_log: Callable[[str], bool]) -> Renamed | None:
    """The first sentence naming the value's subject with a name one or two letters off one of
    the value's, a name the log never shows."""
    names = names_of(value)
    if not names:
        return None
    tokens = said.remember(("misnamed_tokens",), lambda: _tokens(said))
    seen = {t for t, _ in tokens}
    kept = [n for n in names if n in seen or any(t.endswith("/" + n) for t in seen)]
    if not kept:
        return None  # the value's name is not kept: the missing rules read the summary
    taken = set(names)
    for o in others:
        taken.update(names_of(o))
    subject = _subject(value, names)
    for name in kept:
        for token, pos in tokens:
            if token in taken or not letter_off(name, token) or in_log(token):
                continue
            s = said.sentence_at(pos)
            if s is None or not any(w in s.text for w in subject) or denies(_clause(s.text, pos - s.start)):
                continue
            return Renamed((token, name), said.stripped(s), True)
    return None


def _tokens(said: Said) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for m in _TOKEN.finditer(said.text):
        t = m.group(1).rstrip(".")
        if _shaped(t):
            out.append((t, m.start(1)))
            tail = t.rsplit("/", 1)[1] if "/" in t.strip("/") else ""
            if _shaped(tail):
                out.append((tail, m.start(1) + len(t) - len(tail)))
    return tuple(out)


# The last session's events asked about, and the lookup made for them: every generation of a
# session (the Drift tab's 1,000) asks about the same events.
_LAST: tuple[object, Callable[[str], bool] | None] = (None, None)


def log_lookup(event_texts: dict[int, str] | None) -> Callable[[str], bool]:
    """Whether a name stands in any event of the session (its normal form, as a whole name); the
    events are normalised on the first question only (most generations ask none)."""
    global _LAST
    if _LAST[0] is event_texts and _LAST[1] is not None:
        return _LAST[1]
    texts: list[str] = []

    @lru_cache(maxsize=256)
    def seen(token: str) -> bool:
        if not texts:
            texts.extend(norm(t) for t in (event_texts or {}).values())
        edge = re.compile(r"(?<![a-z0-9_-])" + re.escape(token) + r"(?![a-z0-9_-])")
        return any(token in t and edge.search(t) for t in texts)

    _LAST = (event_texts, seen)
    return seen


__all__ = ["letter_off", "log_lookup", "misnamed", "names_of"]
