"""An identifier renamed by a character: "Ticket: OPS-4522." beside "Reference ticket OPS-4521 in
every commit message" (verdict-six).

A value naming a host, a ticket, a port or a path ("prod-db-2", "OPS-4521", "port 8443",
"/srv/app") kept word for word, and elsewhere — in a label or a clause about the same thing — a
near miss of it: one digit changed ("prod-db-3", "OPS-4522", "8444"), two digits swapped ("8434"),
the name cut short ("prod-db") or run on ("/srv/apps", "/srv/app-old"). The limit rules read
numbers beside units and the invented-name rule reads names the log never shows (not a whole log:
only ``?``), so "Migration host: prod-db-3." or "API port: 8434." was "no drift".

A near miss counts in a sentence naming the value's subject (one of its other telling words, or
for Chinese a two-character piece of it) and not denying it. A digit changed or swapped is
decided — ``protected_negated``, survival ``contradicted``: a reader is told another host, ticket
or port. A name cut short or run on is ``subject_unjudged`` (``?``): "prod-db" may be a short
name for "prod-db-2", a person must read it. Not near: a sub-path ("/srv/app/current" holds
"/srv/app"), another protected value's own identifier, a version ("3.11" is said_versions'), a
token shorter than three characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said
from inspector.domain.said_steps import denies, telling_words
from inspector.domain.textnorm import CJK, norm

_TOKEN = re.compile(r"(?<![a-z0-9_./-])(/?[a-z0-9][a-z0-9_-]*(?:[./][a-z0-9_-]+)*)(?![a-z0-9_/-])")
_VERSION_ONLY = re.compile(r"^\d+(?:\.\d+)+$")
_ZH_FILLER = re.compile(r"[把的了在到和与及或将被所全每只能上中里]")


@dataclass(frozen=True, slots=True)
class Renamed:
    words: tuple[str, ...]  # (the near miss, the value's identifier)
    sentence: str
    decided: bool


@lru_cache(maxsize=8192)
def identifiers_of(value: str) -> tuple[str, ...]:
    """The value's identifiers: tokens of three characters or more holding a digit, a "-" or a
    "/" (not a bare version)."""
    out = []
    for m in _TOKEN.finditer(norm(value)):
        t = m.group(1).rstrip(".")
        if len(t) >= 3 and any(c.isdigit() or c in "-/" for c in t) and not _VERSION_ONLY.match(t):
            out.append(t)
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=8192)
def _subject(value: str, ids: tuple[str, ...]) -> tuple[str, ...]:
    v = norm(value)
    words = [w for w in telling_words(v) if w not in ids and not any(w in i for i in ids) and len(w) >= 3
             and not w.isdigit()]
    if CJK.search(v):
        for run in re.findall(r"[\u3400-\u9fff]+", v):
            words += [run[i:i + 2] for i in range(len(run) - 1) if not _ZH_FILLER.search(run[i:i + 2])]
    return tuple(dict.fromkeys(w[:6] if w.isascii() else w for w in words))


def near(ident: str, token: str) -> bool | None:
    """True: a digit changed or two swapped; False: cut short or run on; None: not near."""
    if token == ident or len(token) < 3:
        return None
    if len(token) == len(ident):
        diff = [i for i, (a, b) in enumerate(zip(ident, token, strict=True)) if a != b]
        if len(diff) == 1 and ident[diff[0]].isdigit() and token[diff[0]].isdigit():
            return True
        if (len(diff) == 2 and diff[1] == diff[0] + 1 and ident[diff[0]] == token[diff[1]]
                and ident[diff[1]] == token[diff[0]] and ident[diff[0]].isdigit()):
            return True
        return None
    if ident.isdigit() or token.isdigit():
        return None
    if token.startswith(ident):
        rest = token[len(ident):]
        return False if rest[0] != "/" and (ident.startswith("/") or rest[0] in "-_") else None
    if ident.startswith(token) and len(token) >= 4 and ident[len(token)] in "-_" and not token.endswith("-"):
        return False
    return None


def renamed(said: Said, value: str, others: tuple[str, ...] = ()) -> Renamed | None:
    """The first sentence naming the value's subject with a near miss of one of its identifiers."""
    ids = identifiers_of(value)
    if not ids:
        return None
    tokens = said.remember(("renamed_tokens",), lambda: _tokens(said))
    if not tokens:
        return None
    taken = set(ids)
    for o in others:
        taken.update(identifiers_of(o))
    subject = _subject(value, ids)
    seen = {t for t, _ in tokens}
    for ident in ids:
        if ident not in seen:
            continue  # the value's identifier is not kept: a near miss alone is the missing rules' to read
        for token, pos in tokens:
            if token in taken:
                continue
            how = near(ident, token)
            if how is None:
                continue
            s = said.sentence_at(pos)
            if s is None:
                continue
            if ident in s.text and re.search(r"(?<![\w./-])" + re.escape(ident) + r"(?![\w-])", s.text):
                continue  # the value's own identifier stands here too ("8443 … 8444 rows")
            if not any(w in s.text for w in subject) or denies(_clause(s.text, pos - s.start)):
                continue
            if _date_kept(value, ident, token, s.text[:pos - s.start]):
                continue  # "merged on 2026-12-04" beside "Merge only after 2026-12-03": the rule kept
            return Renamed((token, ident), said.stripped(s), how)
    return None


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


def _date_kept(value: str, ident: str, token: str, before: str) -> bool:
    """Two ISO dates a day or a digit apart are not a misspelling when the value bounds a date
    ("Merge only after 2026-12-03") and the sentence reports an act *on* a date that keeps the
    bound ("The fix was merged on 2026-12-04"): ISO dates compare as strings (verdict-nine)."""
    if not (_ISO.fullmatch(ident) and _ISO.fullmatch(token)) or not re.search(r"(?:\bon|在)\s*$", before):
        return False
    v = value.lower()
    if re.search(r"(?<![a-z])(?:after|from|since|not before)\s+" + re.escape(ident), v):
        return token > ident if "from" not in v and "since" not in v else token >= ident
    if re.search(r"(?<![a-z])(?:by|no later than|not after)\s+" + re.escape(ident), v):
        return token <= ident
    if re.search(r"(?<![a-z])(?:before|until)\s+" + re.escape(ident), v):
        return token < ident
    return False


def _tokens(said: Said) -> tuple[tuple[str, int], ...]:
    out = []
    for m in _TOKEN.finditer(said.text):
        t = m.group(1).rstrip(".")
        if len(t) >= 3 and any(c.isdigit() or c in "-/" for c in t):
            out.append((t, m.start(1)))
    return tuple(out)


def _clause(sentence: str, at: int) -> str:
    cuts = [m.end() for m in re.finditer(r"[;；，,:：]", sentence[:at])]
    start = cuts[-1] if cuts else 0
    end = re.search(r"[;；，,]", sentence[at:])
    return sentence[start:at + (end.start() if end else len(sentence))]


__all__ = ["Renamed", "identifiers_of", "near", "renamed"]
