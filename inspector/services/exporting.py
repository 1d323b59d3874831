"""Export a store (or one session) back to sif/1.

Each record is rebuilt from its row exactly as it was normalised on import, so
export → re-import yields the same records with the same identity digests.

A line is written as ``--json`` output is (``terminal_safe.json_safe``): C1 controls, bidi
overrides and invisible characters inside strings are ``\\u``-escaped like the C0 controls the
encoder escapes itself. The parsed values are the same, and ``cat``, ``head`` or a diff of an
export no longer hands a terminal the raw U+202E or ``\\x9d`` a transcript held.

A *pending* deletion request's reason is written as typed (the store holds it so until the request
is carried out, then only a keyed digest): it may name what is to be deleted, and the file outlives
the deletion. Writing a digest instead would make the re-imported request differ from the stored one
(an export must re-import as the same records), so each such request is named in ``warnings``
instead, and a deletion later names an export in the store's folder that still holds its reason
(services/deletion_outside.py; hostile review eight — before, nothing said so).
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from contextlib import aclosing
from pathlib import Path
from typing import Any

from inspector.domain.canonical import content_hash
from inspector.domain.errors import NotFound
from inspector.domain.formats.builder import ORIGINAL_MEDIA_TYPE
from inspector.domain.terminal_safe import json_safe, quoted
from inspector.domain.vocabulary import SIF_FORMAT
from inspector.services.output_file import check_output, partial_for, remove_stale_partials, written
from inspector.store import materials, session_rows
from inspector.store.connection import Store
from inspector.store.tables import SPECS, WRITE_ORDER


async def _session_ids(store: Store, session: str | None) -> list[str]:
    if session is not None:
        if not await session_rows.exists(store.db, session):
            raise await session_rows.no_session(store.db, session, str(store.path))
        return [session]
    return await session_rows.ids(store.db)


async def iter_records(store: Store, session: str | None = None) -> AsyncIterator[dict[str, Any]]:
    """Every record of the chosen sessions, in write order, as sif dicts."""
    ids = await _session_ids(store, session)
    for sid in ids:
        for type_ in WRITE_ORDER:
            spec = SPECS[type_]
            where = "id = ?" if type_ == "session" else "session = ?"
            extra_cols = ", material_id, deleted_at" if type_ == "material" else ""
            order = {"event": "seq", "state": "key, version", "summary": "generation"}.get(type_, "rowid")
            async with store.db.execute(
                f"SELECT {spec.select_columns}{extra_cols} FROM {spec.table} WHERE {where} ORDER BY {order}", (sid,)
            ) as cur:
                async for row in cur:
                    record = spec.to_record(row)
                    if type_ == "material":
                        if row[-1] is not None:
                            continue  # deleted: only its tombstone remains
                        data = await materials.read_all(store.db, int(row[-2]))
                        record["content"] = (base64.b64encode(data).decode("ascii")
                                             if record["encoding"] == "base64"
                                             else data.decode("utf-8", errors="surrogatepass"))
                    yield record
        async with store.db.execute(
            "SELECT kind, actor, at, payload FROM ledger WHERE session = ? AND source = 'sif' ORDER BY seq", (sid,)
        ) as cur:
            async for kind, actor, at, payload in cur:
                body = json.loads(payload)
                extra = body.pop("_sif_extra", {})
                yield {"type": "ledger", "session": sid, "kind": kind, "actor": actor, "at": at,
                       "payload": body, **extra}


async def export_sif(store: Store, out: Path, session: str | None = None) -> dict[str, Any]:
    """Write sif/1 to a new file next to ``out`` and move it into place only when complete."""
    counts: dict[str, int] = {}
    in_clear: list[str] = []
    target = check_output(out, "export")  # a link's file: written through, never replaced by a file of its own
    stale = remove_stale_partials(target)
    tmp = partial_for(target)
    # A write that fails (a full disk) removes the partial file (written) and closes the record
    # reader here, while the store is still open (aclosing): left to the event loop, it closed
    # after the store and printed a traceback.
    with written(tmp, target, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(json.dumps({"type": "header", "format": SIF_FORMAT}, separators=(",", ":")) + "\n")
        async with aclosing(iter_records(store, session)) as records:
            async for record in records:
                fh.write(json_safe(json.dumps(record, ensure_ascii=False, separators=(",", ":"))) + "\n")
                counts[record["type"]] = counts.get(record["type"], 0) + 1
                if record["type"] == "deletion_request" and reason_in_clear(record):
                    in_clear.append(str(record["id"]))
    return {"file": str(out), "session": session, "records": counts, "stale_partials_removed": stale,
            "warnings": [pending_reason_warning(in_clear)] if in_clear else []}


def reason_in_clear(record: dict[str, Any]) -> bool:
    """Whether a deletion request's reason is text as typed (not yet the keyed digest a deletion makes)."""
    reason = record.get("reason")
    return isinstance(reason, str) and reason != "" and not reason.startswith("hmac-sha256:")


def pending_reason_warning(ids: list[str]) -> str:
    return (f"{'deletion request' if len(ids) == 1 else 'deletion requests'} {', '.join(ids)} not carried out yet: "
            "written with the reason as typed, which may name what is to be deleted; the store keeps only a keyed digest of it once the request is carried out, "
            "this file keeps the text — delete or rewrite it then")


async def export_original(store: Store, session: str, out: Path) -> dict[str, Any]:
    """Write back the transcript a session was imported from, byte for byte: the original,
    then each segment appended to it while it was followed, in the order they were imported."""
    await _session_ids(store, session)
    target = check_output(out, "original transcript")
    rows = await store.db.execute_fetchall(
        "SELECT material_id, id, content_hash, deleted_at FROM materials WHERE session = ? AND media_type = ? "
        "ORDER BY material_id", (session, ORIGINAL_MEDIA_TYPE))
    if not rows:
        raise NotFound(f"session {quoted(session)} was not imported from another format, so there is no original to "
                       "write; use export without --original for sif/1")
    parts: list[bytes] = []
    for material_id, ident, digest, deleted_at in rows:
        if deleted_at is not None:
            raise NotFound(f"the original of {quoted(session)} ({ident}) was deleted on {deleted_at}")
        data = await materials.read_all(store.db, int(material_id))
        if content_hash(data) != digest:
            raise NotFound(f"the stored original of {quoted(session)} ({ident}) no longer matches its hash; not written")
        parts.append(data)
    data = b"".join(parts)
    stale = remove_stale_partials(target)
    tmp = partial_for(target)
    with written(tmp, target, "wb") as fh:
        fh.write(data)
    return {"file": str(out), "session": session, "original": rows[0][1], "segments": len(rows), "bytes": len(data),
            "sha256": content_hash(data), "stale_partials_removed": stale}
