"""Materials stored in fixed-size chunks, each chunk's hash bound to the whole-content hash.

Binding at write time is what lets a later expansion verify a 4 KiB slice of a 100 MB
original by hashing only the chunks it touches (DESIGN §4, rule 5).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import aiosqlite

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


def searchable_text(data: bytes, encoding: str, media_type: str | None) -> str | None:
    """The prefix of a text material that the raw-text index covers (None for binary)."""
    if encoding != "utf-8" and not (media_type or "").startswith("text/"):
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
