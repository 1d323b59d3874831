"""Which deletion removed a target a request names that is gone already.

``deletion`` of a pending request whose target an earlier request removed said "(not found:
evt:4 — already deleted, or never stored)" while the timeline said "deleted by ledger entry
L10" (review-15, item 6): the deletion's ledger entry lists what it removed, so the request's
reader is told which entry, and which request, took it.
"""

from __future__ import annotations

import json
from typing import Any

import aiosqlite

from inspector.domain.plurals import counted

_REMOVED_WHERE = frozenset({"events", "materials"})


def _plain(target: str) -> str:
    return target[4:] if target.startswith("mat:") else target


async def _deletion_entries(db: aiosqlite.Connection, session: str) -> list[tuple[int, dict[str, Any]]]:
    """(ledger seq, payload) of the session's deletion entries in ledger order; a payload that is
    not a JSON object is passed over (verify names it, this listing does not)."""
    out: list[tuple[int, dict[str, Any]]] = []
    for seq, payload in await db.execute_fetchall(
            "SELECT seq, payload FROM ledger WHERE session = ? AND kind = 'deletion' ORDER BY seq", (session,)):
        try:
            entry = json.loads(payload)
        except ValueError:
            continue
        if isinstance(entry, dict):
            out.append((int(seq), entry))
    return out


async def gone_by(db: aiosqlite.Connection, session: str, targets: list[str]) -> dict[str, dict[str, Any]]:
    """``target -> {"ledger": N, "request": "del-2"}`` for each of ``targets`` a carried-out
    deletion of ``session`` removed (the first that did); a target never stored is left out."""
    wanted = {_plain(t): t for t in targets}
    out: dict[str, dict[str, Any]] = {}
    if not wanted:
        return out
    for seq, entry in await _deletion_entries(db, session):
        for copy in entry.get("copies") or []:
            if not isinstance(copy, dict) or copy.get("where") not in _REMOVED_WHERE:
                continue
            target = wanted.get(str(copy.get("id")))
            if target is not None and target not in out:
                out[target] = {"ledger": int(seq), "request": str(entry.get("request") or "")}
    return out


def _event_order(ident: str) -> tuple[int, int, str]:
    """Events in log order (evt:2 before evt:10), then materials by id."""
    if ident.startswith("evt:") and ident[4:].isdigit():
        return (0, int(ident[4:]), "")
    return (1, 0, ident)


async def removed_by(db: aiosqlite.Connection, session: str, request: str) -> dict[str, Any]:
    """What a carried-out ``request``'s own deletion entry removed, as its ledger entry lists it:
    ``{"ledger": N, "events": ["evt:1", …], "materials": ["res:…", …]}`` (``{}`` when no entry says).

    After ``delete`` the listing named only the request's targets as gone, though one target on a
    real transcript took 23 other events and the original transcript's bytes with it (review-18):
    whoever audits the request afterwards is told everything that went, not only what was asked."""
    for seq, entry in await _deletion_entries(db, session):
        if str(entry.get("request") or "") != request:
            continue
        found: dict[str, set[str]] = {"events": set(), "materials": set()}
        for copy in entry.get("copies") or []:
            where = copy.get("where") if isinstance(copy, dict) else None
            if where in ("events", "materials", "original"):  # the imported original's bytes are a material too
                found["events" if where == "events" else "materials"].add(str(copy.get("id")))
        return {"ledger": int(seq), **{k: sorted(v, key=_event_order) for k, v in found.items()}}
    return {}


def removed_sentence(removed: dict[str, Any], *, shown: int = 12) -> str | None:
    """The removal in one sentence for a done request's listing (the CLI and the app's dialog):
    "its deletion (ledger entry L3) removed 24 events (evt:8, evt:9, … and 12 more) and 2 materials
    (original:run.jsonl, res:t1)"; ``None`` when no entry says what it removed."""
    if not removed:
        return None

    def named(ids: list[str], one: str) -> str:
        more = f" and {len(ids) - shown:,} more" if len(ids) > shown else ""
        return f"{counted(len(ids), one)} ({', '.join(ids[:shown])}{more})"
    parts = [named(removed[k], one) for k, one in (("events", "event"), ("materials", "material")) if removed.get(k)]
    what = " and ".join(parts) if parts else "no event or material"
    return f"its deletion (ledger entry L{removed['ledger']}) removed {what}"
