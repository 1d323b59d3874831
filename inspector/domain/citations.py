"""Citations: refs a summary or candidate cites that do not stand in the session.

``source_outside_range`` for cited refs: pure bookkeeping over the refs and the session's
event numbers and ids, no reading of the text — so it lives apart from the rules around
``Said``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Refs naming something a session holds (a material, a stub); other refs ("ledger:N" of a
# correction, "gen:N") are the store's own and not judged here.
_MATERIAL_LIKE = re.compile(r"(?:res|mat|material|stub)[:\-]", re.IGNORECASE)


def cited_outside(sources: Iterable[str], covers: tuple[int, int] | None, max_seq: int | None,
                  event_seqs: frozenset[int] | None, known_refs: frozenset[str] | None = None) -> list[str]:
    """Cited refs that do not stand: an ``evt:N`` that does not exist or lies outside what the
    generation covers, an ``evt`` ref that is not ``evt:N`` at all ("evt:999a", "evt: 99",
    "evt:-1"), and — when the session's material and stub ids are known — a material or stub
    ref the session does not hold ("res:nope")."""
    bad: list[str] = []
    for src in sources:
        ref = str(src)
        m = re.fullmatch(r"evt:(\d+)", ref)
        if not m:
            if ref.strip().casefold().startswith("evt") or not ref.strip():
                bad.append(ref)
            elif known_refs is not None and _MATERIAL_LIKE.match(ref) and ref not in known_refs:
                bad.append(ref)
            continue
        n = int(m.group(1))
        missing = (event_seqs is not None and n not in event_seqs) or (max_seq is not None and n > max_seq)
        outside = covers is not None and not covers[0] <= n <= covers[1]
        if missing or outside:
            bad.append(ref)
    return bad
