"""Reading a session's texts for split copies of a deletion's values (domain/deletion_split.py).

Every text a record holds — an event's content and each string of its tool input, reasoning
and other fields; a summary, state value, stub outline, action intent, candidate, handoff;
the start and end of every stored material — becomes a :class:`Piece` named by its record.
Neighbours (a split there may leave a one-character part) are consecutive events of the log,
a tool call and its result, and an event and the materials it observed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import aiosqlite

from inspector.domain.deletion import strings_in
from inspector.domain.deletion_forms import LooseMatcher
from inspector.domain.deletion_spelling import spelled_in
from inspector.domain.deletion_split import EDGE, Piece, straddling
from inspector.domain.deletion_split_spelled import Link, joined_splits, pair_splits
from inspector.domain.formats.builder import ORIGINAL_MEDIA_TYPE
from inspector.domain.number_copies import NumberCopies
from inspector.services.deletion_tables import BY_VALUE

# The records other than events, whose fields are read whole (events are read as pieces).
_RECORDS = tuple(row for row in BY_VALUE if row[0] != "events")
_JSON_COLUMNS = frozenset({"extra", "claims", "unresolved"})


def _texts(column: str, cell: object) -> list[str]:
    if cell is None:
        return []
    if column in _JSON_COLUMNS:
        try:
            return strings_in(json.loads(str(cell)), keys=False)  # keys are names: deletion_names
        except ValueError:
            pass
    return [str(cell)]


@dataclass(slots=True)
class SessionPieces:
    """The session's texts, who holds each (``where|id``), and which holders are neighbours."""

    pieces: list[Piece]
    neighbours: set[frozenset[str]]

    def of(self, owner: str) -> list[str]:
        return [p.text for p in self.pieces if p.owner == owner]

    def next_to(self, owner: str) -> set[str]:
        return {o for pair in self.neighbours if owner in pair for o in pair if o != owner}


async def _material_text(db: aiosqlite.Connection, material_id: int, chunks: int) -> str:
    """A material's first and last characters (a split only touches its ends)."""
    first = await db.execute_fetchall("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx LIMIT 1",
                                      (material_id,))
    head = bytes(first[0][0]).decode("utf-8", errors="replace") if first else ""
    if chunks <= 1:
        return head
    last = await db.execute_fetchall("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx DESC "
                                     "LIMIT 2", (material_id,))
    tail = b"".join(bytes(r[0]) for r in reversed(last)).decode("utf-8", errors="replace")
    # a head and tail longer than EDGE each are read apart; a gap keeps them from joining
    return head[:EDGE] + "\n\n" + tail[-EDGE:] if len(head) >= EDGE and len(tail) >= EDGE else head + tail


async def session_pieces(db: aiosqlite.Connection, session: str) -> SessionPieces:
    pieces: list[Piece] = []
    neighbours: set[frozenset[str]] = set()
    previous: str | None = None
    calls: dict[str, list[str]] = {}
    async with db.execute("SELECT seq, content, extra, call_id FROM events WHERE session = ? ORDER BY seq",
                          (session,)) as cur:
        async for seq, content, extra, call_id in cur:
            owner = f"events|evt:{seq}"
            pieces += [Piece(owner, t) for t in (*_texts("content", content), *_texts("extra", extra)) if t]
            if previous is not None:
                neighbours.add(frozenset((previous, owner)))
            previous = owner
            if call_id:
                calls.setdefault(str(call_id), []).append(owner)
    for owners in calls.values():
        neighbours |= {frozenset((a, b)) for a in owners for b in owners if a != b}
    for table, columns, name, where in _RECORDS:
        async with db.execute(f"SELECT {name}, {', '.join(columns)} FROM {table} WHERE session = ?",
                              (session,)) as cur:
            async for ident, *cells in cur:
                pieces += [Piece(f"{where}|{ident}", t) for c, cell in zip(columns, cells, strict=True)
                           for t in _texts(c, cell) if t]
    for material_id, ident, media, source_event, chunks in await db.execute_fetchall(
            "SELECT material_id, id, media_type, source_event, chunk_count FROM materials "
            "WHERE session = ? AND deleted_at IS NULL", (session,)):
        if media == ORIGINAL_MEDIA_TYPE:
            continue  # the transcript file repeats the events whole, where the scan by value finds them
        owner = f"materials|{ident}"
        pieces.append(Piece(owner, await _material_text(db, material_id, int(chunks or 0))))
        if source_event is not None:
            neighbours.add(frozenset((owner, f"events|evt:{source_event}")))
    return SessionPieces(pieces, neighbours)


def straddling_values(found: SessionPieces, targets: list[str]) -> list[str]:
    """Sensitive values a target holds only in part, the rest in a neighbour or another of its own
    fields: a request naming the event that ends with ``sk-live-4f`` names the whole key."""
    values: set[str] = set()
    for target in targets:
        owner = f"events|{target}" if target.startswith("evt:") else f"materials|{target}"
        own = found.of(owner)
        others = [t for o in found.next_to(owner) for t in found.of(o)]
        for a in own:
            for b in [*own, *others]:
                if a is not b:
                    values |= set(straddling(a, b)) | set(straddling(b, a))
    return sorted(values)


def spelled_splits(found: SessionPieces, loose: LooseMatcher, numbers: NumberCopies | None,
                   longest: int) -> list[tuple[tuple[str, ...], str]]:
    """The deletion's values cut across neighbouring records in any spelling it reads
    (domain/deletion_split_spelled.py), with the listing's own matcher: consecutive events joined in the
    log's order (two or three), and the other neighbours — a call and its result with events between,
    an event and a material it observed — joined either way round. ``longest`` (the longest sensitive
    value) sets how much of each is joined. A whole value spelled only by the join is cut there — a line
    of the targets too, when it is short enough (the join must hold all of it: a part is never compared)."""
    if (not loose and numbers is None) or not longest:
        return []
    texts: dict[str, list[str]] = {}
    for piece in found.pieces:
        if piece.owner.startswith(("events|", "materials|")):  # a material's piece: its start and end
            texts.setdefault(piece.owner, []).append(piece.text)

    def spelled(text: str) -> str | None:
        return spelled_in(text, loose, numbers)

    events = [owner for owner in texts if owner.startswith("events|")]
    chain = [Link(owner, "\n".join(texts[owner])) for owner in events]
    in_order = {frozenset(pair) for pair in zip(events, events[1:], strict=False)}  # joined_splits reads those
    others = sorted(tuple(sorted(pair)) for pair in found.neighbours
                    if len(pair) == 2 and pair not in in_order and all(o in texts for o in pair))
    pairs = [(Link(a, "\n".join(texts[a])), Link(b, "\n".join(texts[b]))) for a, b in others]
    return joined_splits(chain, spelled, longest) + pair_splits(pairs, spelled, longest)
