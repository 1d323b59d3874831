"""What a converted transcript's records get before the one validated import writes them.

A transcript is not sif/1: it names no owner, its title is the importer's reading of it, and its
protected facts are the extractor's proposals. These settle each against the store (an existing
session keeps its owner and title; a key already stored is never proposed again), and ``to_sif``
writes the records as the sif/1 lines every format is imported through.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.domain.facts import extract_from_records
from inspector.domain.known_text import as_text_record
from inspector.domain.vocabulary import SIF_FORMAT
from inspector.store import session_rows
from inspector.store.connection import Store
from inspector.store.jsoncodec import fast_compact_bytes


def to_sif(records: list[dict[str, Any]]) -> bytes:
    """Converted records as sif/1 bytes, so every format goes through the one validated import."""
    lines = [json.dumps({"type": "header", "format": SIF_FORMAT}).encode("utf-8")]
    lines += [fast_compact_bytes(as_text_record(r)) for r in records]
    return b"\n".join(lines) + b"\n"


async def settle_owner(store: Store, records: list[dict[str, Any]], actor: str) -> None:
    """A transcript names no owner; the person who imports it owns the new session (so its
    goal and constraints can be confirmed at all — DESIGN rule 3). A session already in the
    store keeps the owner it has, so re-reading the file by someone else is not a conflict."""
    for rec in records:
        if rec.get("type") != "session" or rec.get("owner"):
            continue
        row = await session_rows.get(store.db, rec["id"])
        if row is None:
            rec["owner"] = actor
        elif row.owner:
            rec["owner"] = row.owner


async def settle_title(store: Store, records: list[dict[str, Any]]) -> None:
    """A transcript's title is the importer's reading of it (formats/titles.py), not a field of
    the file: a session already in the store keeps the title it was stored with, so a store made
    before the reading improved reads its file again in full (as after a deletion,
    services/unchanged_import.py) instead of refusing its session record as conflicting."""
    for rec in records:
        if rec.get("type") != "session":
            continue
        row = await session_rows.get(store.db, rec["id"])
        if row is not None:
            rec["title"] = row.title


def all_proposed_facts(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`proposed_facts` for a new store (none stored), on a thread while the records are written."""
    return [f.state_record(session) for session, facts in extract_from_records(records).items() for f in facts]


async def proposed_facts(store: Store, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Pending records the extractor proposes for a transcript, minus keys the store
    already holds (a grown or re-read file never rewrites a proposal a person may have
    decided; ``inspector facts --write`` adds what is new)."""
    out: list[dict[str, Any]] = []
    for session, facts in extract_from_records(records).items():
        stored = {row[0] for row in await store.db.execute_fetchall(
            "SELECT DISTINCT key FROM state_records WHERE session = ?", (session,))}
        out += [f.state_record(session) for f in facts if f.key not in stored]
    return out
