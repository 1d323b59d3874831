"""Replaying the ledger: what every status and tombstone must be, compared with the rows.

The projections (a record's status, a candidate's or handoff's decision, a deletion
request's outcome, a tombstoned material) are derived from ledger entries: an import or
a handoff's ``session.created`` entry lists the non-default status of each record it
added (``initial_status``), and every later act names the status it set
(``status_set``). Replaying them in order gives what each row must show; a row that
shows anything else was changed outside an act (a status flipped in SQL). Deletions
name every copy they removed, so a tombstone without its act, or an act whose copy is
still there, shows too. Sessions written before entries carried ``initial_status`` are
listed as not replayed rather than guessed at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.sif_schema import IDENTITY_FIELDS
from inspector.domain.terminal_safe import inert
from inspector.services.record_writer import STATUS_DEFAULTS
from inspector.services.verify_rows import batched
from inspector.store import bindings
from inspector.store.connection import Store
from inspector.store.tables import SPECS

CREATING_KINDS = ("import", "session.created")


@dataclass(slots=True)
class Replay:
    status: dict[tuple[str, tuple[Any, ...]], str] = field(default_factory=dict)
    unbound: set[str] = field(default_factory=set)  # sessions with a creating entry from before replay
    # (session, material id) -> the deletion's time as its entry recorded it (None: an entry from before)
    tombstoned: dict[tuple[str, str], str | None] = field(default_factory=dict)

    def feed(self, session: str | None, kind: str, source: str, payload: dict[str, Any]) -> None:
        if source != "inspector" or session is None:
            return  # acts a harness recorded (sif ledger lines) are history, not projections
        initial = payload.get("initial_status")
        if kind in CREATING_KINDS and not isinstance(initial, dict) and payload.get("added"):
            self.unbound.add(session)
        if isinstance(initial, dict):  # any act that adds records says their status this way
            for type_, by_status in initial.items():
                for status, identities in (by_status or {}).items() if isinstance(by_status, dict) else ():
                    for identity in identities if isinstance(identities, list) else ():
                        if isinstance(identity, list):
                            self.status[(type_, tuple(identity))] = status
        sets = payload.get("status_set")
        for status_set in sets if isinstance(sets, list) else [sets]:
            if isinstance(status_set, dict) and status_set.get("type") in SPECS:
                key = (str(status_set["type"]), tuple(status_set.get("identity") or ()))
                self.status[key] = str(status_set.get("status"))
        if kind == "deletion":
            for copy in payload.get("copies") or []:
                if isinstance(copy, dict) and copy.get("where") in ("materials", "original"):
                    when = payload.get("deleted_at")
                    self.tombstoned[(session, str(copy.get("id")))] = when if isinstance(when, str) else None

    async def compare(self, store: Store, fail: Any) -> None:
        await self._statuses(store, fail)
        await self._tombstones(store, fail)

    async def _statuses(self, store: Store, fail: Any) -> None:
        for type_, default in STATUS_DEFAULTS.items():
            spec = SPECS[type_]
            ident = ", ".join(IDENTITY_FIELDS[type_])
            async with store.db.execute(f"SELECT {ident}, status FROM {spec.table}") as cur:
                async for row in batched(cur):
                    identity, status = tuple(row[:-1]), row[-1]
                    if identity[0] in self.unbound:
                        continue
                    set_by_ledger = (type_, identity) in self.status
                    want = self.status.get((type_, identity), default)
                    if status != want:
                        said = (f"the ledger set it to {want}" if set_by_ledger
                                else f"no ledger entry ever changed it from {inert(want)}")
                        fail({"where": spec.table, "identity": list(identity), "code": "status_differs",
                              "message": f"{type_} {list(identity[1:])} in session {inert(identity[0])} shows status "
                                         f"{inert(status)}, but {said} (replayed): it was changed outside an act"})

    async def _tombstones(self, store: Store, fail: Any) -> None:
        async with store.db.execute(
            "SELECT session, id, deleted_at, (SELECT COUNT(*) FROM material_chunks c "
            "WHERE c.material_id = m.material_id) FROM materials m"
        ) as cur:
            async for session, mid, deleted_at, chunks in batched(cur):
                ordered = (session, mid) in self.tombstoned
                deleted = deleted_at is not None
                when = self.tombstoned.get((session, mid))
                if deleted and ordered and when is not None and deleted_at != when:
                    fail({"where": "materials", "session": session, "id": mid, "code": "tombstone_time_differs",
                          "message": f"material {inert(mid)} shows it was deleted at {deleted_at}, but its deletion "
                                     f"entry says {when}"})
                if deleted and not ordered:
                    fail({"where": "materials", "session": session, "id": mid, "code": "tombstone_unordered",
                          "message": f"material {inert(mid)} is marked deleted, but no deletion in the ledger covers it"})
                elif ordered and (not deleted or chunks):
                    fail({"where": "materials", "session": session, "id": mid, "code": "deleted_bytes_kept",
                          "message": f"a deletion in the ledger removed material {inert(mid)}, but its bytes are still "
                                     "stored"})


async def check_bindings(store: Store, fail: Any, unbound: set[str]) -> None:
    """Every stored material's chunk binding against the digest its import bound in the ledger."""
    by_session: dict[str, dict[str, str] | None] = {}
    async with store.db.execute(
        "SELECT session, id, chunk_binding FROM materials WHERE deleted_at IS NULL ORDER BY session"
    ) as cur:
        rows = [tuple(r) async for r in batched(cur)]
    for session, mid, binding in rows:
        if session in unbound:
            continue
        if session not in by_session:
            by_session[session] = await bindings.material_bindings(store.db, session)
        bound = by_session[session]
        if bound is None:
            continue
        want = bound.get(mid)
        if want is None:
            fail({"where": "materials", "session": session, "id": mid, "code": "material_unbound",
                  "message": f"material {inert(mid)} is not bound in any import's ledger entry"})
        elif want != bindings.bound_digest(store.digest_key, binding):
            fail({"where": "materials", "session": session, "id": mid, "code": "material_rebound",
                  "message": f"material {inert(mid)}: its chunk hashes are not the ones its import bound in the ledger "
                             "(the chunks were rewritten and rebound)"})
