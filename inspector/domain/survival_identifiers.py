"""Whether a summary names a path or identifier: its forms and where it stands as a whole word.

An artifact, reference or evidence ref survives when the summary names it — itself, its file
name, or a hash's seven-letter short form — at a boundary: "a.go." ends a sentence, but
"a.go.bak", "a.go~" and "#a.go#" are other files. Split from survival.py, which judges every kind.
"""

from __future__ import annotations

import re
from functools import lru_cache

from inspector.domain.drift_rules import Said
from inspector.domain.textnorm import norm

_PATH_SEP = re.compile(r"[/\\]")
_HASH = re.compile(r"[0-9a-f]{8,40}")


@lru_cache(maxsize=16384)
def identifier_forms(value: str) -> tuple[str, ...]:
    """The forms of a path or identifier that count as naming it: itself, its file name,
    a hash's seven-letter short form (worked out once per record, not per generation)."""
    v = norm(value)
    candidates = [v]
    if "/" in v or "\\" in v:
        base = _PATH_SEP.split(v.rstrip("/\\"))[-1]
        if base:
            candidates.append(base)
    if _HASH.fullmatch(v):
        candidates.append(v[:7])
    return tuple(candidates)


def identifier_kept(said: Said, value: str) -> str | None:
    flat = said.flat()
    for c in identifier_forms(value):
        pos = boundary_find(flat, c)
        if pos >= 0:
            return sentence_at(said, pos)
    return None


def boundary_find(text: str, needle: str) -> int:
    start = 0
    while True:
        pos = text.find(needle, start)
        if pos < 0:
            return -1
        before = text[pos - 1] if pos else " "
        end = pos + len(needle)
        after = text[end] if end < len(text) else " "
        # "a.go." ends a sentence; "a.go.bak" is another file, and so are an editor's
        # backup "a.go~" and autosave "#a.go#".
        dotted = after == "." and end + 1 < len(text) and (text[end + 1].isalnum() or text[end + 1] == "_")
        if not (before.isalnum() or before in "_-.#") and not (after.isalnum() or after in "_-~#") and not dotted:
            return pos
        start = pos + 1


def sentence_at(said: Said, flat_pos: int) -> str:
    s = said.sentence_at(flat_pos)
    return said.stripped(s) if s is not None else ""
