"""Expand a stub: read a bounded byte range of its material, verified, and ledgered.

Checks run in a fixed order (issue #4): scope, deleted, version, hash, range, budget;
a refusal stops before any material byte is read. Reading touches only the chunks the
range covers (plus up to 3 bytes either side, to find character boundaries) and verifies
just those chunks against digests bound to the whole-content hash when it was stored.
The chunk hashes themselves are compared with the digest the import's ledger entry bound
(``inspector.store.bindings``), so chunks rewritten together with their hashes are refused,
never returned as verified. Expanding never changes the stub, and never re-queries the source: it reads the original.
A range outside the stub's ``read_slice`` is read (the bytes are the same original) with a
note that it goes beyond what the original observation covered; a stub whose time differs
from the material's gets a note too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.errors import Refusal
from inspector.domain.stubs import outside_slice, same_time
from inspector.domain.terminal_safe import quoted
from inspector.domain.trust import reviewer_name
from inspector.domain.utf8_edges import cut_edges
from inspector.services.lookup import load_by_id
from inspector.store import bindings, ledger, materials
from inspector.store.connection import Store

DEFAULT_MAX_BYTES = 64 * 1024
DEFAULT_SCOPES = ("public", "team", "task")
EDGE = 3  # bytes read beyond each end to find where the cut characters begin and end


@dataclass(frozen=True, slots=True)
class StubRef:
    session: str
    id: str
    material: str
    content_hash: str | None
    source_version: str | None
    read_slice: tuple[int, int] | None
    retrieved_at: str | None
    disclosure_scope: str | None


@dataclass(slots=True)
class Expansion:
    stub: str
    session: str
    material: str
    range: tuple[int, int]
    max_bytes: int
    refusals: list[Refusal] = field(default_factory=list)
    data: bytes = b""
    text: str | None = None
    binary: bool = False
    cut_head: bytes = b""
    cut_tail: bytes = b""
    snap_wider: tuple[int, int] | None = None
    snap_narrower: tuple[int, int] | None = None
    verified: bool = False
    retrieved_at: str | None = None
    chunks_read: int = 0
    ledger_bound: bool = False  # the chunk hashes matched the digest the import's ledger entry bound
    recorded: bool = False  # the expansion is in the ledger (not on a read-only store)
    read_slice: tuple[int, int] | None = None
    outside: list[tuple[int, int]] = field(default_factory=list)  # parts of the range beyond read_slice
    notes: list[Refusal] = field(default_factory=list)  # shown with the bytes; they do not block
    # The range asked for when only its head was read (no range given, the stub's slice over the
    # limit): ``range`` is the head, cut back to a character boundary; None when nothing was left out.
    requested: tuple[int, int] | None = None

    @property
    def truncated(self) -> bool:
        return self.requested is not None and self.requested != self.range

    @property
    def total_bytes(self) -> int:
        s, e = self.requested or self.range
        return e - s

    @property
    def ok(self) -> bool:
        return not self.refusals

    def as_dict(self) -> dict[str, Any]:
        base: dict[str, Any] = {"stub": self.stub, "session": self.session, "material": self.material,
                                "range": list(self.range), "max_bytes": self.max_bytes}
        if self.refusals:
            return {**base, "refusals": [r.as_dict() for r in self.refusals]}
        return {**base, "bytes": len(self.data), "text": self.text, "binary": self.binary,
                "truncated": self.truncated, "total_bytes": self.total_bytes,
                "left_out_bytes": self.total_bytes - len(self.data),
                "requested_range": list(self.requested or self.range),
                "hex": self.data.hex() if self.binary else None,
                "cut_head_hex": self.cut_head.hex(), "cut_tail_hex": self.cut_tail.hex(),
                "snap_wider": list(self.snap_wider or self.range), "snap_narrower": list(self.snap_narrower or self.range),
                "verified": self.verified, "ledger_bound": self.ledger_bound, "recorded": self.recorded,
                "retrieved_at": self.retrieved_at, "chunks_read": self.chunks_read,
                "read_slice": list(self.read_slice) if self.read_slice else None,
                "beyond_read_slice": [list(p) for p in self.outside] or None,
                "notes": [n.as_dict() for n in self.notes],
                "budget": {"limit": self.max_bytes, "used": len(self.data),
                           "left": self.max_bytes - len(self.data)}}


async def find_stub(store: Store, stub: str, session: str | None = None) -> StubRef:
    r = await load_by_id(store.db, "stub", stub, session)
    rs = r.get("read_slice")
    return StubRef(r["session"], r["id"], r["material"], r.get("content_hash"), r.get("source_version"),
                   (rs[0], rs[1]) if rs else None, r.get("retrieved_at"), r.get("disclosure_scope"))


def _pre_read_refusals(stub: StubRef, m: materials.StoredMaterial | None, start: int, end: int, max_bytes: int,
                       scopes: tuple[str, ...]) -> list[Refusal]:
    scope = (m.disclosure_scope if m is not None else None) or stub.disclosure_scope
    if scope is not None and scope not in scopes:
        return [Refusal("scope_denied", f"{stub.material} is disclosed to scope {quoted(scope)}; this reader has "
                        f"{', '.join(scopes)}. Read it with --scope {scope} only if you are entitled to.")]
    if m is None or m.deleted_at is not None:
        when = f" on {m.deleted_at}" if m is not None else ""
        return [Refusal("deleted", f"{stub.material} is not in the store (deleted{when}, or never stored). A new "
                        "observation of the source would be a new fact with its own time, not this original.")]
    found: list[Refusal] = []
    if stub.source_version is not None and stub.source_version != m.source_version:
        found.append(Refusal("version_mismatch", f"the stub was taken from version {quoted(stub.source_version)} but the "
                             f"stored original is version {quoted(m.source_version)}; it is not what the agent saw."))
    if stub.content_hash is not None and stub.content_hash != m.content_hash:
        found.append(Refusal("hash_mismatch", f"the stub names content {stub.content_hash[:19]}… but the stored "
                             f"original hashes to {m.content_hash[:19]}…; they are different bytes."))
    if found:
        return found
    if 0 <= end < start:  # "is outside the material's N bytes" of [5, 2) sent the reader to the size (newuser-18)
        return [Refusal("out_of_bounds", f"range [{start}, {end}) ends before it starts: give the start first "
                        f"({end}:{start}?); offsets are bytes, start ≤ end ≤ size ({m.size:,}).")]
    if not 0 <= start <= end or end > m.size:
        return [Refusal("out_of_bounds", f"range [{start}, {end}) is outside the material's {m.size:,} bytes "
                        "(offsets are bytes, start ≤ end ≤ size).")]
    if end - start > max_bytes:
        return [Refusal("over_budget", f"{end - start:,} bytes exceed this expansion's limit of {max_bytes:,}; "
                        f"narrow the range, or raise the limit deliberately (the limit box in the app, "
                        f"--max-bytes on the command line).")]
    return []


def _add_notes(result: Expansion, stub: StubRef, m: materials.StoredMaterial) -> None:
    result.outside = outside_slice(stub.read_slice, *result.range)
    if result.outside and stub.read_slice is not None:
        parts = " and ".join(f"[{s:,}, {e:,})" for s, e in result.outside)
        result.notes.append(Refusal("beyond_read_slice", f"bytes {parts} lie outside the stub's read_slice "
                                    f"[{stub.read_slice[0]:,}, {stub.read_slice[1]:,}): they are read from the same "
                                    "original, but beyond what the original observation covered."))
    if stub.retrieved_at and m.retrieved_at and not same_time(stub.retrieved_at, m.retrieved_at):
        result.notes.append(Refusal("retrieved_at_mismatch", f"the stub says it was observed at {stub.retrieved_at}; "
                                    f"the stored original was retrieved at {m.retrieved_at}."))


async def expand(store: Store, stub_id: str, *, actor: str, session: str | None = None,
                 byte_range: tuple[int, int] | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
                 scopes: tuple[str, ...] = DEFAULT_SCOPES, head: bool = False) -> Expansion:
    """``head``: when no range is given and the stub's slice is over ``max_bytes``, read its first
    ``max_bytes`` (cut back to a whole character) and say how much was left out, instead of
    refusing ``over_budget``. A range given byte for byte is still refused when over the limit."""
    actor = reviewer_name(actor)
    stub = await find_stub(store, stub_id, session)
    start, end = byte_range or stub.read_slice or (0, 0)
    if byte_range is None and stub.read_slice is None:
        m0 = await materials.find_material(store.db, stub.session, stub.material)
        end = m0.size if m0 is not None else 0
    result = Expansion(stub.id, stub.session, stub.material, (start, end), max_bytes, retrieved_at=stub.retrieved_at,
                       read_slice=stub.read_slice)
    # A read-only store can still be read: the expansion is verified the same way, but there is
    # no ledger to record it in (``recorded`` says so).
    async with (store.snapshot() if store.read_only else store.transaction()) as db:
        m = await materials.find_material(db, stub.session, stub.material)
        cut = head and byte_range is None and end - start > max_bytes
        result.refusals = _pre_read_refusals(stub, m, start, end, end - start if cut else max_bytes, scopes)
        if result.refusals or m is None:
            return result
        if cut:  # every check passed on the whole slice; only its head is read
            result.requested, end = (start, end), start + max_bytes
            result.range = (start, end)
        lo, hi = max(0, start - EDGE), min(m.size, end + EDGE)
        read = await materials.read_range(db, m, lo, hi)
        if not read.verified:
            result.refusals = [Refusal("hash_mismatch", f"stored {'chunk' if len(read.bad_chunks) == 1 else 'chunks'} "
                                       f"{', '.join(map(str, read.bad_chunks))} of {m.id} no longer "
                                       f"{'matches' if len(read.bad_chunks) == 1 else 'match'} the digests bound to its content hash: the stored bytes changed.")]
            return result
        bound = (await bindings.material_bindings(db, stub.session) or {}).get(m.id)
        if bound is not None and bound != bindings.bound_digest(store.digest_key, m.chunk_binding):
            result.refusals = [Refusal("hash_mismatch", f"the chunk hashes of {m.id} are not the ones the ledger bound "
                                       "when it was imported: the stored bytes were rewritten and rebound.")]
            return result
        result.data = read.data[start - lo : end - lo]
        result.chunks_read, result.verified, result.ledger_bound = read.chunks_read, True, bound is not None
        binary = m.encoding == "base64" and not (m.media_type or "").startswith("text/")
        edges = None if binary else cut_edges(read.data, lo, start, end)
        if edges is not None and edges.text is not None and result.requested is not None and edges.cut_tail:
            end -= len(edges.cut_tail)  # a head ends on a character boundary: the cut character is left out
            result.range, result.data = (start, end), read.data[start - lo : end - lo]
            edges = cut_edges(read.data, lo, start, end)
        if edges is None or edges.text is None:
            result.binary = True
        else:
            result.text, result.cut_head, result.cut_tail = edges.text, edges.cut_head, edges.cut_tail
            result.snap_wider, result.snap_narrower = edges.snap_wider, edges.snap_narrower
        _add_notes(result, stub, m)
        if store.read_only:
            return result
        result.recorded = True
        await ledger.append(db, [ledger.NewEntry(stub.session, "expand", actor, {
            "stub": stub.id, "material": m.id, "range": [start, end], "bytes": len(result.data),
            "max_bytes": max_bytes, "verified": True, "beyond_read_slice": bool(result.outside),
            **({"head_of": list(result.requested)} if result.truncated and result.requested else {})})])
    return result
