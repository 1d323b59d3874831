"""Materials stored in fixed-size chunks, each chunk's hash bound to the whole-content hash.

Binding at write time is what lets a later expansion verify a 4 KiB slice of a 100 MB
original by hashing only the chunks it touches (DESIGN §4, rule 5).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import aiosqlite

from inspector.store.connection import fetch_one
from inspector.store.schema import CHUNK_SIZE, MATERIAL_INDEX_CAP

DIGEST_SIZE = 32


@dataclass(frozen=True, slots=True)
class ChunkLayout:
    size: int
    chunk_size: int
    chunk_count: int
    chunk_hashes: bytes
    chunk_binding: str
    indexed_bytes: int


def chunk_binding(content_hash: str, chunk_hashes: bytes) -> str:
    """Ties the list of chunk digests to the whole original's content hash."""
    return hashlib.sha256(content_hash.encode("ascii") + b"\n" + chunk_hashes).hexdigest()


def layout_for(data: bytes, content_hash: str, chunk_size: int = CHUNK_SIZE) -> ChunkLayout:
    digests = b"".join(
        hashlib.sha256(data[i : i + chunk_size]).digest() for i in range(0, max(len(data), 1), chunk_size)
    ) if data else b""
    count = len(digests) // DIGEST_SIZE
    return ChunkLayout(len(data), chunk_size, count, digests, chunk_binding(content_hash, digests),
                       min(len(data), MATERIAL_INDEX_CAP))


async def write_chunks(db: aiosqlite.Connection, material_id: int, data: bytes, chunk_size: int) -> None:
    await db.executemany(
        "INSERT INTO material_chunks (material_id, idx, data) VALUES (?, ?, ?)",
        ((material_id, n, data[i : i + chunk_size]) for n, i in enumerate(range(0, len(data), chunk_size))),
    )


async def write_all_chunks(db: aiosqlite.Connection, items: list[tuple[int, bytes, int]]) -> None:
    """:func:`write_chunks` of several materials, (material id, bytes, chunk size) each, in one statement."""
    await db.executemany(
        "INSERT INTO material_chunks (material_id, idx, data) VALUES (?, ?, ?)",
        ((material_id, n, data[i : i + size]) for material_id, data, size in items
         for n, i in enumerate(range(0, len(data), size))),
    )


def is_searchable(encoding: str, media_type: str | None) -> bool:
    """Whether the raw-text index covers a material of this kind (not binary ones, and not the
    original transcript file, whose text the events already index)."""
    if encoding != "utf-8" and not (media_type or "").startswith("text/"):
        return False
    return media_type != "application/x-original-transcript"


def searchable_text(data: bytes, encoding: str, media_type: str | None) -> str | None:
    """The prefix of a text material that the raw-text index covers (None for binary)."""
    if not is_searchable(encoding, media_type):
        return None
    return data[:MATERIAL_INDEX_CAP].decode("utf-8", errors="ignore")


async def read_all(db: aiosqlite.Connection, material_id: int) -> bytes:
    """The whole original; used by export, never by expansion."""
    parts: list[bytes] = []
    async with db.execute(
        "SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (material_id,)
    ) as cur:
        async for row in cur:
            parts.append(bytes(row[0]))
    return b"".join(parts)


@dataclass(frozen=True, slots=True)
class StoredMaterial:
    material_id: int
    session: str
    id: str
    size: int
    chunk_size: int
    content_hash: str
    chunk_hashes: bytes
    chunk_binding: str
    source_version: str | None
    disclosure_scope: str | None
    encoding: str
    media_type: str | None
    deleted_at: str | None
    retrieved_at: str | None = None  # the original observation's time (a stub must agree with it)


async def find_material(db: aiosqlite.Connection, session: str, material: str) -> StoredMaterial | None:
    row = await fetch_one(db, "SELECT material_id, session, id, size, chunk_size, content_hash, chunk_hashes, chunk_binding, source_version, "
        "disclosure_scope, encoding, media_type, deleted_at, retrieved_at FROM materials WHERE session = ? AND id = ?",
        (session, material),)
    return None if row is None else StoredMaterial(*row[:6], bytes(row[6]), *row[7:])


@dataclass(frozen=True, slots=True)
class RangeRead:
    data: bytes  # bytes [start, end) of the material
    chunks_read: int
    verified: bool  # every chunk touched hashed to its bound digest, and the digest list to the content hash
    bad_chunks: tuple[int, ...]


async def read_range(db: aiosqlite.Connection, m: StoredMaterial, start: int, end: int) -> RangeRead:
    """Read [start, end) touching only the chunks it covers, and verify exactly those chunks."""
    if end <= start:
        return RangeRead(b"", 0, chunk_binding(m.content_hash, m.chunk_hashes) == m.chunk_binding, ())
    first, last = start // m.chunk_size, (end - 1) // m.chunk_size
    rows = await db.execute_fetchall("SELECT idx, data FROM material_chunks WHERE material_id = ? AND idx BETWEEN ? AND ? ORDER BY idx",
        (m.material_id, first, last),)
    bad = [idx for idx, data in rows
           if hashlib.sha256(data).digest() != m.chunk_hashes[idx * DIGEST_SIZE : (idx + 1) * DIGEST_SIZE]]
    missing = set(range(first, last + 1)) - {idx for idx, _ in rows}
    bound = chunk_binding(m.content_hash, m.chunk_hashes) == m.chunk_binding
    joined = b"".join(bytes(data) for _, data in rows)
    offset = start - first * m.chunk_size
    return RangeRead(joined[offset : offset + (end - start)], len(rows), bound and not bad and not missing,
                     tuple(sorted([*bad, *missing])))
