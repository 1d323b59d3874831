"""Seals: each act binds, in its ledger entry, the rows it leaves behind.

A record row carries a digest of its own columns, so a naive edit shows; but whoever edits
a row can recompute that digest, add a row with a fresh one, delete one, or swap two rows'
order — and the row digests alone cannot tell. So every ledger entry the inspector writes
*seals* the record types it changed in its session: a keyed digest over the digests of
all that session's rows of the type, in insertion (rowid) order. ``verify`` recomputes
each (session, type)'s latest seal; changing the rows then means rewriting the hash chain
from that entry on, which verify reports (and ``verify --head`` catches even when the
whole chain was recomputed).

Which types an entry seals: those its payload names as ``added``, ``removed`` or
``rewritten``; an entry that creates a session (``import``, ``session.created``) seals
every type, so a row of a type the session never had still shows.

An import that only appends to a session it did not create (a followed transcript's new
lines, every poll) *links* instead of re-reading the session: for its events and materials
it seals ``+K:digest``, a keyed digest over the previous seal of that (session, type) and
the digests of the K rows it added (the session's last K in order). Re-reading every row
digest on each poll made following a large session cost O(session) per look; a link costs
O(K). ``verify`` recomputes the chain from the rows — the first N-ΣK rows as a full seal,
then each link's K rows — so an edit anywhere, before or inside a link, changes its end. Keyed with the store's
secret (DESIGN rule 2): a seal over a single short record cannot be brute-forced. Only
the order of rows counts, never their rowid values, so a copy to another backend (which
hands out its own ids, in the same order) keeps its seals.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import aiosqlite

from inspector.domain.canonical import keyed_digest
from inspector.store.tables import SPECS, WRITE_ORDER

CREATING_KINDS = ("import", "session.created")
SEALED = "seals"  # the payload key
LINKED = ("event", "material")  # the types an appending import links rather than re-reads
LINK = "+"  # a linked seal's prefix: "+K:hmac-sha256:…"
SCAN_MAX = 4096  # rows of other sessions passed over, looking for a link's rows, before sealing whole


def _order_column(type_: str) -> str:
    return {"event": "event_id", "material": "material_id"}.get(type_, "rowid")


async def digests(db: aiosqlite.Connection, session: str, type_: str) -> list[str]:
    """The row digests of ``session``'s rows of ``type_``, in insertion order."""
    spec = SPECS[type_]
    column = "id" if type_ == "session" else "session"
    rows = await db.execute_fetchall(
        f"SELECT digest FROM {spec.table} WHERE {column} = ? ORDER BY {_order_column(type_)}", (session,))
    return [str(row[0]) for row in rows]


def _whole(key: bytes, type_: str, rows: list[str]) -> str:
    lines = "".join(f"{row}\n" for row in rows)  # one buffer, hashed once: cheap at a million rows
    digest = hashlib.sha256(lines.encode("utf-8", "surrogatepass")).hexdigest()
    return _whole_of(key, type_, len(rows), digest)


def _whole_of(key: bytes, type_: str, count: int, lines_digest: str) -> str:
    return keyed_digest(key, f"{type_}:{count}:{lines_digest}".encode("ascii"))


class RowDigests:
    """What a whole seal is taken over, fed as rows are written: their count and the sha256 of
    their digests one per line, in order (:func:`_whole`), without holding the digests — a
    million-event import would otherwise keep ~110 MB of them to the end."""

    __slots__ = ("count", "_lines")

    def __init__(self) -> None:
        self.count = 0
        self._lines = hashlib.sha256()

    def add(self, digests: Sequence[str]) -> None:
        if digests:
            self._lines.update("".join(f"{d}\n" for d in digests).encode("utf-8", "surrogatepass"))
            self.count += len(digests)

    def seal(self, key: bytes, type_: str) -> str:
        return _whole_of(key, type_, self.count, self._lines.hexdigest())


def _link(key: bytes, type_: str, previous: str, rows: list[str]) -> str:
    lines = "".join(f"{row}\n" for row in rows)
    digest = hashlib.sha256(lines.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{LINK}{len(rows)}:" + keyed_digest(key, f"{type_}:+{len(rows)}:{previous}:{digest}".encode("ascii"))


async def seal(db: aiosqlite.Connection, key: bytes, session: str, type_: str) -> str:
    """The keyed digest of ``session``'s rows of ``type_``: their digests, in insertion order."""
    return _whole(key, type_, await digests(db, session, type_))


def link_size(value: str) -> int | None:
    """K of a linked seal ``+K:…``; None for a whole seal."""
    if not value.startswith(LINK):
        return None
    size, _, _rest = value[1:].partition(":")
    return int(size) if size.isdigit() else -1


def expected(key: bytes, type_: str, rows: list[str], chain: list[str]) -> str | None:
    """What the last seal of ``chain`` (the linked seals since the last whole one, oldest first;
    empty: a whole seal) must be for these rows; None when the links claim more rows than there are."""
    sizes = [link_size(v) or 0 for v in chain]
    if any(k < 0 for k in sizes):
        return None
    cut = len(rows) - sum(sizes)
    if cut < 0:
        return None
    value = _whole(key, type_, rows[:cut])
    for k in sizes:
        value = _link(key, type_, value, rows[cut:cut + k])
        cut += k
    return value


async def _last_seal(db: aiosqlite.Connection, session: str, type_: str) -> str | None:
    row = await db.execute_fetchall(
        "SELECT payload FROM ledger WHERE session = ? AND source = 'inspector' AND json_extract(payload, ?) IS NOT NULL "
        "ORDER BY seq DESC LIMIT 1", (session, f"$.{SEALED}.{type_}"))
    if not row:
        return None
    value = json.loads(row[0][0]).get(SEALED, {}).get(type_)
    return value if isinstance(value, str) else None


async def _newest(db: aiosqlite.Connection, session: str, type_: str, count: int) -> list[str] | None:
    """The digests of ``session``'s last ``count`` rows of ``type_`` in insertion order, read from
    the top of the table down (the rows an import just added are there), or None when more than
    SCAN_MAX rows of other sessions lie above them."""
    column = _order_column(type_)
    table = SPECS[type_].table
    found: list[str] = []
    passed = 0
    below: int | None = None
    while len(found) < count:
        where = f"WHERE {column} < ? " if below is not None else ""
        rows = await db.execute_fetchall(
            f"SELECT {column}, session, digest FROM {table} {where}ORDER BY {column} DESC LIMIT ?",
            (*((below,) if below is not None else ()), max(64, count - len(found))))
        if not rows:
            return None
        for order, owner, digest in rows:
            below = int(order)
            if owner == session:
                found.append(str(digest))
                if len(found) == count:
                    break
            else:
                passed += 1
        if passed > SCAN_MAX:
            return None
    found.reverse()
    return found


def appends(kind: str, payload: dict[str, Any]) -> bool:
    """An import into a session it did not create (a followed transcript's new lines)."""
    added = payload.get("added")
    return kind == "import" and isinstance(added, dict) and not added.get("session")


def sealed_types(kind: str, payload: dict[str, Any]) -> list[str]:
    """The record types an entry of ``kind`` with ``payload`` changed, so must seal."""
    if kind in CREATING_KINDS and not appends(kind, payload):
        return list(WRITE_ORDER)
    named: set[str] = set()
    for field in ("added", "removed"):
        value = payload.get(field)
        if isinstance(value, dict):
            named |= {t for t, n in value.items() if n}
    rewritten = payload.get("rewritten")
    if isinstance(rewritten, list):
        named |= {t for t in rewritten if isinstance(t, str)}
    return [t for t in WRITE_ORDER if t in named]


async def store_key(db: aiosqlite.Connection) -> bytes | None:
    rows = await db.execute_fetchall("SELECT value FROM store_meta WHERE key = 'digest_key'")
    return bytes.fromhex(str(rows[0][0])) if rows else None


async def seals_for(db: aiosqlite.Connection, key: bytes, session: str, kind: str,
                    payload: dict[str, Any], earlier: dict[tuple[str, str], str] | None = None,
                    known: Mapping[tuple[str, str], RowDigests] | None = None) -> dict[str, str]:
    """The seals of one entry. ``earlier``: the seals of entries appended before it in the same
    batch (not in the table yet), which a link must chain on. ``known``: (session, type) -> every
    row of that session's rows of that type, in insertion order, as the caller wrote them (an
    import into an empty store): sealed from those instead of reading them back."""
    earlier = {} if earlier is None else earlier
    added = payload.get("added")
    appending = appends(kind, payload)  # then only what it added, removed or rewrote is sealed
    removed = payload.get("removed")
    rewritten = payload.get("rewritten")
    out: dict[str, str] = {}
    for type_ in sealed_types(kind, payload):
        value: str | None = None
        if appending and type_ in LINKED and not (isinstance(removed, dict) and removed.get(type_)) and not (
                isinstance(rewritten, list) and type_ in rewritten):
            previous = earlier.get((session, type_)) or await _last_seal(db, session, type_)
            rows = await _newest(db, session, type_, int(added[type_])) if previous is not None else None  # type: ignore[index]
            if previous is not None and rows is not None:
                value = _link(key, type_, previous, rows)
        written = known.get((session, type_)) if known is not None and value is None else None
        if written is not None:
            value = written.seal(key, type_)
        out[type_] = value if value is not None else await seal(db, key, session, type_)
        earlier[(session, type_)] = out[type_]
    return out
