"""What the rules read of a huge user message: every paragraph of the user's own words, not the paste.

A message of 64,000 characters or more was read in its first 48,000 and last 16,000 characters
(facts_window): "Never delete the backups." typed between two halves of a 5 MB log was never
proposed, and drift said "?" (said_in_part) over every such message, own words read or not
(newuser-18 #4). A person's words sit between pasted blocks, not inside them, so the message is
split into its own words and its pasted blocks — fenced code, and runs of log-shaped lines or
segments (a timestamp, a level, a stack frame, ``path:line:``, a JSON key or bracket; or mostly machine tokens:
``req=1672798``, ``14:55:20Z``, ``0x7f3a``), unless it holds a prohibition or a must — and the
rules read every own-words run, and the
first and last :data:`EDGE` characters of each pasted block (where a program names its failure),
each joined to the next by a paragraph break so no sentence is made across a paste.

What is read is kept under :data:`BUDGET` characters, so time is bounded whatever the paste's
size (one pass over the text, linear) and a reading is never read again (it is under the bound
that makes a text huge). When even that is over the budget — own words of more than ~60,000
characters, or a paste the rules cannot tell from prose — the reading keeps its first
:data:`USER_HEAD` and last :data:`USER_TAIL` characters and says own words were skipped
(``own_skipped``: drift's ``said_in_part``, never a ✓ over them). A single log-shaped line or
sentence among prose is the user's (``port=8080 host=db1`` can be a rule): only a run of
:data:`RUN_MIN` such segments, or a fence, is a paste.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.domain.wordlists import wordlist

CUT = "\n\n"
BUDGET = 63_000  # characters read of a huge user message: under facts_window.WHOLE_BELOW (64,000)
USER_HEAD, USER_TAIL = 48_000, 15_000  # when the reading is over the budget: its head and tail
EDGE = 1_000  # characters read at each end of a pasted block
RUN_MIN = 3  # log-shaped segments in a row that make a paste
LONG_LINE = 1_000  # a line this long is split at sentence ends and semicolons into segments

_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_LOG_START = re.compile(
    r"^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}|\[?\d{1,2}:\d{2}:\d{2}|\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|"
    r"FATAL|CRITICAL|NOTICE)\b|at [\w$.<>]+\(|File \"[^\"]+\", line \d+|Traceback \(most recent|[\w./\\-]+\.\w+:\d+(?::\d+)?:|"
    r"0x[0-9a-fA-F]{4,}|[+-]{3} |@@ |\$ |> |#\d+ |\||[{}\[\]]+,?\s*$|\"[^\"\n]{0,200}\"\s*[:,]?\s*$|\"[^\"\n]{0,200}\"\s*:|"
    r"-?\d[\d.eE+-]*,?\s*$|(?:true|false|null),?\s*$|(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning)\b[:(]|"
    r"panic: |goroutine \d+ )")
_MACHINE = re.compile(r"[\d=/\\_{}\[\]<>|@#$%^&*]|:\S")
_SPLIT = re.compile(r"(?<=[.;!?。；！？])[ \t]+")
_RULE_WORDS = wordlist("constraint")
_TOKEN_CUT = re.compile(r"[\s,;|]+")


@dataclass(frozen=True, slots=True)
class Reading:
    """What the rules read of one message, and what they did not."""

    text: str
    own_skipped: bool  # some of the user's own words are not in ``text``: said_in_part
    pasted: int  # characters of pasted blocks not read (between their edges)
    read: tuple[tuple[int, int], ...]  # the message's character ranges ``text`` holds, in order


def _log_shaped(segment: str) -> bool:
    """A log record's shape — unless it holds a prohibition or a must ("… INFO never delete the
    backups"): words a rule is made of are read wherever they stand, a paste's budget allowing."""
    s = segment.strip()
    if not s:
        return False
    if not _LOG_START.match(s):
        tokens = s.split()
        if len(tokens) < 3 and ("," in s or ";" in s or "|" in s):  # fields of a CSV or a table row count too
            tokens = [t for t in _TOKEN_CUT.split(s) if t]
        if len(tokens) < 3 or sum(1 for t in tokens if _MACHINE.search(t)) * 2 < len(tokens):
            return False
    return not _holds_rule(s)


def _holds_rule(s: str) -> bool:
    return _RULE_WORDS.first(s.casefold()) is not None


def _segments(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) over the whole text, kind "blank", "fence", "log", "indent" or "own"."""
    out: list[tuple[int, int, str]] = []
    pos, fenced = 0, False
    for line in text.splitlines(keepends=True):
        start, end = pos, pos + len(line)
        pos = end
        if out and out[-1][2] == "blank" and out[-1][1] == start and not line.strip():
            out[-1] = (out[-1][0], end, "blank")  # a run of blank lines is one segment (a text of line breaks)
            continue
        if _FENCE.match(line):
            out.append((start, end, "fence"))
            fenced = not fenced
            continue
        if fenced:
            out.append((start, end, "fence"))
        elif not line.strip():
            out.append((start, end, "blank"))
        elif len(line) < LONG_LINE:
            # an indented line (a traceback's code line, a wrapped record) goes with the log lines around
            # it, unless it holds a rule's words; anywhere else it is the user's
            kind = "log" if _log_shaped(line) else "indent" if line[0] in " \t" and not _holds_rule(line) else "own"
            if kind == "own" and out and out[-1][2] == "own" and out[-1][1] == start:
                out[-1] = (out[-1][0], end, "own")  # one segment for a paragraph of the user's
            else:
                out.append((start, end, kind))
        else:  # a pasted log on one line ("…status=500; 2026-01-06T…"): its sentences and records
            at = start
            for m in _SPLIT.finditer(line):
                cut = start + m.start()
                out.append((at, cut, "log" if _log_shaped(text[at:cut]) else "own"))
                out.append((cut, start + m.end(), "blank"))
                at = start + m.end()
            out.append((at, end, "log" if _log_shaped(text[at:end]) else "own"))
    return out


def _runs(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, pasted) runs covering the text: a fence, or RUN_MIN log-shaped segments with
    only blank or indented lines between, is pasted; everything else is the user's own."""
    segs = _segments(text)
    marks = [kind == "fence" for _, _, kind in segs]
    i = 0
    while i < len(segs):
        if segs[i][2] != "log":
            i += 1
            continue
        j, logs, last = i, 0, i
        while j < len(segs) and segs[j][2] in ("log", "blank", "indent"):
            if segs[j][2] == "log":
                logs, last = logs + 1, j
            j += 1
        if logs >= RUN_MIN:
            for k in range(i, last + 1):
                marks[k] = True
        i = j
    runs: list[tuple[int, int, bool]] = []
    for (start, end, _), pasted in zip(segs, marks, strict=True):
        if runs and runs[-1][2] == pasted and runs[-1][1] == start:
            runs[-1] = (runs[-1][0], end, pasted)
        else:
            runs.append((start, end, pasted))
    return runs


_READ: dict[tuple[int, int], Reading] = {}  # (length, hash) of a text -> its reading; never the text itself
_READ_MOST = 32


def user_reading(text: str) -> Reading:
    """The rules' reading of a huge user message (the module's rule); remembered for the last few
    texts, as drift, survival and the notes each ask for the same message — by the text's length
    and hash, so a cache of 30 MB pastes does not keep them in memory."""
    key = (len(text), hash(text))
    found = _READ.get(key)
    if found is None:
        if len(_READ) >= _READ_MOST:
            del _READ[next(iter(_READ))]
        found = _READ[key] = _reading(text)
    return found


def _reading(text: str) -> Reading:
    pieces: list[tuple[int, int, bool]] = []  # (start, end, own) ranges of the text read, in order
    pasted = 0
    for start, end, is_paste in _runs(text):
        if not is_paste:
            pieces.append((start, end, True))
        elif end - start <= 2 * EDGE:
            pieces.append((start, end, False))
        else:
            pieces += [(start, start + EDGE, False), (end - EDGE, end, False)]
            pasted += end - start - 2 * EDGE
    joined = CUT.join(text[a:b] for a, b, _ in pieces)
    if len(joined) <= BUDGET:
        return Reading(joined, False, pasted, tuple((a, b) for a, b, _ in pieces))
    # over the budget: the reading's head and tail; own words in its middle are skipped
    head_end, tail_start = USER_HEAD, len(joined) - USER_TAIL
    skipped, at = False, 0
    read: list[tuple[int, int]] = []
    for a, b, own in pieces:
        lo, hi = at, at + (b - a)  # where this piece stands in ``joined``
        if own and not skipped and lo < tail_start and hi > head_end:  # words, not blank lines, left out
            skipped = bool(text[a + max(lo, head_end) - lo:a + min(hi, tail_start) - lo].strip())
        if lo < head_end:
            read.append((a, a + min(b - a, head_end - lo)))
        if hi > tail_start:
            read.append((b - min(b - a, hi - tail_start), b))
        at = hi + len(CUT)
    return Reading(joined[:head_end] + CUT + joined[tail_start:], skipped, pasted, tuple(read))


__all__ = ["BUDGET", "EDGE", "USER_HEAD", "USER_TAIL", "Reading", "user_reading"]
