"""The three channels' contents: protected state, task summary, raw evidence.

Read models only: each returns plain dataclasses that the app and ``--json`` both show.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from inspector.domain.vocabulary import STATE_KINDS
from inspector.store import materials
from inspector.store.connection import Store, fetch_one
from inspector.store.tables import SPECS


@dataclass(frozen=True, slots=True)
class StateRecord:
    key: str
    version: int
    kind: str
    value: str
    status: str
    writer: str | None
    at: str | None
    scope: str | None
    sources: list[str]
    rationale: str | None = None
    alternatives: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Generation:
    generation: int
    parent: int | None
    kind: str
    text: str
    covers: list[int] | None
    base_version: int | None
    unresolved: list[str]
    sources: list[str]
    claims: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class StubView:
    id: str
    material: str
    read_slice: list[int] | None
    source_version: str | None
    disclosure_scope: str | None
    retrieved_at: str | None
    outline: str | None
    content_hash: str | None


@dataclass(frozen=True, slots=True)
class MaterialView:
    id: str
    size: int
    source_version: str | None
    disclosure_scope: str | None
    media_type: str | None
    content_hash: str
    retrieved_at: str | None
    source_event: int | None
    deleted: bool
    indexed_bytes: int
    stubs: list[StubView]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _kind_rank(kind: str) -> int:
    return STATE_KINDS.index(kind) if kind in STATE_KINDS else len(STATE_KINDS)


async def state_records(store: Store, session: str) -> list[StateRecord]:
    """Every version of every record, grouped by kind in the vocabulary's order, newest version first."""
    spec = SPECS["state"]
    rows = [spec.to_record(r) for r in await store.db.execute_fetchall(f"SELECT {spec.select_columns} FROM state_records WHERE session = ?", (session,))]
    records = [
        StateRecord(r["key"], r["version"], r["kind"], r["value"], r["status"], r.get("writer"), r.get("at"),
                    r.get("scope"), r.get("sources", []), r.get("rationale"), r.get("alternatives", []))
        for r in rows
    ]
    return sorted(records, key=_state_order)


def _state_order(r: StateRecord) -> tuple[int, int, str, int]:
    """By kind, then key; a user's later requests (``goal.later_request…``, F13) after the goal
    itself, in the order they were made, not the alphabet's ("goal.later…" sorts before "goal.main")."""
    if r.key.startswith("goal.later_request."):
        first = min((int(s[4:]) for s in r.sources if s.startswith("evt:") and s[4:].isdigit()), default=0)
        return _kind_rank(r.kind), 1, f"{first:012d}{r.key}", -r.version
    return _kind_rank(r.kind), 0, r.key, -r.version


async def generations(store: Store, session: str) -> list[Generation]:
    """Summary generations, latest first."""
    spec = SPECS["summary"]
    rows = [spec.to_record(r) for r in await store.db.execute_fetchall(f"SELECT {spec.select_columns} FROM summaries WHERE session = ? ORDER BY generation DESC", (session,))]
    return [Generation(r["generation"], r.get("parent"), r["kind"], r["text"], r.get("covers"),
                       r.get("base_version"), r.get("unresolved", []), r.get("sources", []), r.get("claims", []))
            for r in rows]


async def evidence(store: Store, session: str) -> list[MaterialView]:
    """Materials with the stubs that point at them; a stub whose material is missing is
    listed under a material shown as missing (size -1), never dropped."""
    stubs: dict[str, list[StubView]] = {}
    spec = SPECS["stub"]
    async with store.db.execute(
        f"SELECT {spec.select_columns} FROM stubs WHERE session = ? ORDER BY id", (session,)
    ) as cur:
        for row in await cur.fetchall():
            r = spec.to_record(row)
            stubs.setdefault(r["material"], []).append(StubView(
                r["id"], r["material"], r.get("read_slice"), r.get("source_version"), r.get("disclosure_scope"),
                r.get("retrieved_at"), r.get("outline"), r.get("content_hash")))
    out: list[MaterialView] = []
    async with store.db.execute(
        "SELECT id, size, source_version, disclosure_scope, media_type, content_hash, retrieved_at, source_event, "
        "deleted_at IS NOT NULL, indexed_bytes FROM materials WHERE session = ? ORDER BY material_id", (session,)
    ) as cur:
        for row in await cur.fetchall():
            out.append(MaterialView(*row[:8], bool(row[8]), row[9], stubs.pop(row[0], [])))
    for material_id, orphan_stubs in stubs.items():
        out.append(MaterialView(material_id, -1, None, None, None, "", None, None, False, 0, orphan_stubs))
    return out


async def event_detail(store: Store, session: str, seq: int) -> dict[str, Any] | None:
    spec = SPECS["event"]
    row = await fetch_one(store.db, f"SELECT {spec.select_columns} FROM events WHERE session = ? AND seq = ?", (session, seq))
    return None if row is None else spec.to_record(row)


ORIGINAL_PREVIEW_BYTES = 16 * 1024


async def original_text(store: Store, session: str, origin: dict[str, Any]) -> str | None:
    """The original line(s) an imported event came from, read by byte range from the kept
    original file (bounded: at most 16 KiB, and it says when it cut)."""
    material, span = origin.get("material"), origin.get("bytes")
    if not material or not isinstance(span, list) or len(span) != 2:
        return None
    found = await materials.find_material(store.db, session, material)
    if found is None or found.deleted_at is not None:
        return None
    start, end = int(span[0]), int(span[1])
    cut = end - start > ORIGINAL_PREVIEW_BYTES
    read = await materials.read_range(store.db, found, start, min(end, start + ORIGINAL_PREVIEW_BYTES))
    if not read.verified:
        return None
    text = read.data.decode("utf-8", errors="replace")
    return text + (f"\n… {end - start - ORIGINAL_PREVIEW_BYTES:,} more bytes not shown" if cut else "")
