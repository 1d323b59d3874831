"""Filing a deletion request: the act that starts a deletion, by the reviewer who asks for it.

Until this, a request could only come from a ``deletion_request`` record of a sif/1 file, so
a reviewer who found a secret in a transcript had no way to ask for its removal from the
store they were reading. Filing is its own act, separate from carrying it out (DESIGN §2
"deletion": see what a request must cover, then carry it out): it writes the pending
request row and one ``deletion.request`` ledger entry that seals it, and deletes nothing.

Targets are written as DESIGN §5 writes source references: ``evt:N`` (ASCII digits, an event
of the session still stored) or a material id of the session as written (``res:run-184``);
``mat:ID`` names the material ``ID`` explicitly. Every target must resolve, or the whole
request is refused (``unknown_target``) and nothing is written: a request whose target
resolves to nothing would list no copy and read as "done" when carried out. The reason's
text may name the very value to delete, so the ledger keeps only its keyed digest (rule 2);
the row keeps it until the deletion digests it too (services/deletions.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from inspector.domain.canonical import keyed_digest
from inspector.domain.deletion import REASON_CODES, sensitive_values
from inspector.domain.errors import BadInput, NotFound
from inspector.domain.event_refs import event_number, stored_seq
from inspector.domain.sif import identity_digest
from inspector.domain.terminal_safe import quoted
from inspector.domain.trust import reason_text, reviewer_name
from inspector.services.deletion_scan import Coverage, coverage
from inspector.store import ledger, session_rows
from inspector.store.connection import Store, fetch_one
from inspector.store.tables import SPECS

__all__ = ["Filed", "Looked", "file_request", "normal_target", "preview"]

MATERIAL_PREFIX = "mat:"  # an explicit material reference: mat:ID names the material ID


@dataclass(frozen=True, slots=True)
class Looked:
    """A request not filed yet: its targets, the copies it would cover, and how many values it
    looks for (sensitive ones, and lines of the targets long enough to be a copy) — counted,
    never shown: the values are what is to be deleted."""

    targets: list[str]
    coverage: Coverage
    sensitive: int
    lines: int


@dataclass(frozen=True, slots=True)
class Filed:
    request: str
    session: str
    targets: list[str]
    reason_code: str
    ledger_seq: int
    # a target already in another pending request: carrying out either removes it, and the other
    # then finds it gone ("deleted nothing") — said, not refused (two people may ask for it)
    also_pending: dict[str, list[str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"request": self.request, "session": self.session, "targets": self.targets, "status": "pending",
                "reason_code": self.reason_code, "ledger": self.ledger_seq, "also_pending": self.also_pending}


def normal_target(typed: str) -> str:
    """A target as a person may type it, in the form it is stored: ``evt:N`` keeps its digits
    (leading zeros dropped: ``evt:007`` is event 7), anything else is a material id."""
    text = typed.strip()
    number = event_number(text)
    return text if number is None else f"evt:{number}"


async def _resolve(db: aiosqlite.Connection, session: str, typed: str) -> str | None:
    """The stored form of one target, or None when the session holds nothing it names."""
    target = normal_target(typed)
    number = event_number(target)
    if number is not None:
        seq = stored_seq(number)
        if seq is None:  # no event has it (and SQLite cannot even be asked: OverflowError)
            return None
        found = await fetch_one(db, "SELECT 1 FROM events WHERE session = ? AND seq = ?", (session, seq))
        return target if found else None
    if target.startswith("evt:") and target[4:].isdigit():  # 'evt:１', 'evt:٣': digits of another script
        return None  # no event: stored as typed, the deletion's scan read it as event 1 and listed it twice
    for mid in dict.fromkeys([target, target[len(MATERIAL_PREFIX):] if target.startswith(MATERIAL_PREFIX) else ""]):
        if mid and await fetch_one(db, "SELECT 1 FROM materials WHERE session = ? AND id = ? AND deleted_at IS NULL",
                                   (session, mid)):
            return mid
    return None


async def _resolved(db: aiosqlite.Connection, session: str, typed: list[str]) -> list[str]:
    """Every target in its stored form, each once; BadInput ``unknown_target`` naming every one
    the session does not hold (NotFound when the session itself is not stored)."""
    if not await session_rows.exists(db, session):
        missing = await session_rows.no_session(db, session)
        raise NotFound(f"{missing.message}; nothing was written")
    resolved: list[str] = []
    unknown: list[str] = []
    for t in typed:
        found = await _resolve(db, session, t)
        if found is None:
            unknown.append(t)
        elif found not in resolved:
            resolved.append(found)
    if unknown:
        raise BadInput(f"session {quoted(session)} holds no event or material named {', '.join(map(quoted, unknown))} "
                       "(a target is evt:N in ASCII digits, a material id as the Raw evidence list shows it, or mat:ID; a "
                       "deleted one is gone already); nothing was written", code="unknown_target")
    return resolved


async def preview(store: Store, session: str, targets: list[str]) -> Looked:
    """What a request for ``targets`` would look for and the copies it would cover now, without
    filing it (the app's dialog shows this before the reviewer confirms)."""
    async with store.snapshot() as db:
        resolved = await _resolved(db, session, [t for t in targets if t.strip()])
        # with a reason, so the copy the filed request adds (its own reason text) is counted here too:
        # "covers 21 copies now" before filing, "22 copies" after (review-15 item 4)
        cov = await coverage(db, {"id": "(this request)", "session": session, "targets": resolved,
                                  "status": "pending", "reason": "(the reason given)"})
    sensitive = set(sensitive_values("\n".join(cov.values)))
    return Looked(resolved, cov, len(sensitive & set(cov.values)), len(set(cov.values) - sensitive))


async def _also_pending(db: aiosqlite.Connection, session: str, targets: list[str]) -> dict[str, list[str]]:
    """Each target another pending request of the session already names, with those requests."""
    out: dict[str, list[str]] = {}
    for request, stored in await db.execute_fetchall(
            "SELECT id, targets FROM deletion_requests WHERE session = ? AND status = 'pending' ORDER BY rowid",
            (session,)):
        try:
            named = json.loads(stored) if isinstance(stored, str) else stored
        except ValueError:
            continue
        for target in targets:
            if isinstance(named, list) and target in named:
                out.setdefault(target, []).append(str(request))
    return out


async def _next_id(db: aiosqlite.Connection, session: str) -> str:
    rows = await db.execute_fetchall("SELECT id FROM deletion_requests WHERE session = ?", (session,))
    taken = {str(r[0]) for r in rows}
    n = len(taken) + 1
    while f"del-{n}" in taken:
        n += 1
    return f"del-{n}"


async def file_request(store: Store, session: str, targets: list[str], reason: str, *, actor: str,
                       reason_code: str = "other") -> Filed:
    """Write one pending deletion request for ``targets`` of ``session`` and its ledger entry;
    refuse (BadInput, nothing written) when a target names nothing, the reason is empty or the
    reason code is unknown."""
    actor = reviewer_name(actor)
    reason_text(reason)
    if not reason.strip():
        raise BadInput("a deletion request needs a reason (--reason): who asked for it and why; nothing was written",
                       code="reason_required")
    if reason_code not in REASON_CODES:
        raise BadInput(f"unknown reason code {quoted(reason_code)}: one of {', '.join(REASON_CODES)}; nothing was written",
                       code="bad_reason_code")
    typed = [t for t in targets if t.strip()]
    if not typed:
        raise BadInput("a deletion request needs at least one target (evt:N or a material id); nothing was written",
                       code="no_targets")
    async with store.transaction() as db:
        resolved = await _resolved(db, session, typed)
        also = await _also_pending(db, session, resolved)
        request = await _next_id(db, session)
        record: dict[str, Any] = {"type": "deletion_request", "session": session, "id": request,
                                  "targets": resolved, "requested_by": actor, "reason": reason,
                                  "status": "pending", "reason_code": reason_code}
        spec = SPECS["deletion_request"]
        await db.execute(spec.insert_sql, spec.to_row(record, identity_digest("deletion_request", record)))
        entries = await ledger.append(db, [ledger.NewEntry(session, "deletion.request", actor, {
            "request": request, "targets": resolved, "reason_code": reason_code,
            # the reason may name the value to delete: only its keyed digest (DESIGN rule 2)
            "reason_digest": keyed_digest(store.digest_key, reason.encode("utf-8")),
            "added": {"deletion_request": 1}})])
    return Filed(request, session, resolved, reason_code, entries[0].seq, also)
