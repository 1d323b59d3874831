"""The session's evidence as one lower-cased text, for ``invented_identifier``.

Every event's whole content and tool input, and the text of every stored original except
the imported transcript file itself (which also holds the compaction summaries being
judged), minus the events that record a compaction (their text *is* the summary). Beside
it, whether the log is whole: it begins where the conversation began (a Claude Code file
whose first record's parent is not in the file continues an earlier conversation) and no
deletion removed part of it. An identifier no part of a whole log names is invented; in a
log that is not whole it can only be unverified.
"""

from __future__ import annotations

import unicodedata

import aiosqlite

from inspector.domain.formats.builder import ORIGINAL_MEDIA_TYPE
from inspector.domain.log_start import claude_code_starts_whole
from inspector.services.tombstones import tombstones
from inspector.store.schema import MATERIAL_INDEX_CAP

HEAD_BYTES = 256 * 1024  # of the original file, to find its first record with a parent


async def evidence_text(db: aiosqlite.Connection, session: str, carriers: frozenset[str]) -> str:
    parts: list[str] = []
    for seq, content, extra in await db.execute_fetchall(
            "SELECT seq, content, extra FROM events WHERE session = ? ORDER BY seq", (session,)):
        if f"evt:{seq}" in carriers:
            continue
        parts.append(content or "")
        parts.append(extra or "")
    rows = await db.execute_fetchall(
        "SELECT material_id, chunk_size, encoding, media_type FROM materials WHERE session = ? "
        "AND deleted_at IS NULL AND (media_type IS NULL OR media_type != ?)", (session, ORIGINAL_MEDIA_TYPE))
    for material_id, chunk_size, encoding, media_type in rows:
        if encoding != "utf-8" and not (media_type or "").startswith("text/"):
            continue
        chunks = max(1, MATERIAL_INDEX_CAP // max(1, int(chunk_size)))
        data = b"".join(bytes(r[0]) for r in await db.execute_fetchall(
            "SELECT data FROM material_chunks WHERE material_id = ? AND idx < ? ORDER BY idx", (material_id, chunks)))
        parts.append(data.decode("utf-8", errors="ignore"))
    return unicodedata.normalize("NFC", "\n".join(parts)).lower()


async def evidence_whole(db: aiosqlite.Connection, session: str) -> tuple[bool | None, str]:
    """(True, ""): the log begins where the conversation did and nothing was deleted;
    (False, why): it does not; (None, why): an imported file this cannot tell about."""
    if await tombstones(db, session):
        return False, "part of the log was deleted"
    rows = await db.execute_fetchall(
        "SELECT material_id FROM materials WHERE session = ? AND media_type = ? AND deleted_at IS NULL",
        (session, ORIGINAL_MEDIA_TYPE))
    if not rows:
        return True, ""  # a sif/1 session: its raw log is the fact anchor (DESIGN §1)
    head = b"".join(bytes(r[0]) for r in await db.execute_fetchall(
        "SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx LIMIT ?",
        (rows[0][0], 4)))[:HEAD_BYTES]
    whole = claude_code_starts_whole(head.decode("utf-8", errors="ignore"))
    return whole, ("" if whole else "the log continues an earlier conversation" if whole is False
                   else "it cannot tell whether this imported log is whole")
