"""Acts a sif file claimed but could not prove, repeated by ``check`` (``unverified_act``).

A sif file that says a candidate or handoff was accepted, a deletion carried out or an unknown
outcome reconciled as not done cannot prove who decided (its acts are unsigned): the import
takes the record undecided, reports the claim once and records it in its ledger entry
(``unverified_acts``, domain/trust.py). ``check`` ran later said nothing of it, so a store whose
file claimed decisions nobody made here read as a clean ✓. The claim is repeated while the
record is still undecided here: a warning that turns the line to "?" (a person must decide it);
once a person decided it in this store, the act here settles it and the claim is not repeated.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.domain.errors import InspectorError
from inspector.domain.terminal_safe import inert
from inspector.domain.trust import ACT_STATUSES
from inspector.store.connection import Store

_TABLES = {"candidate": "candidates", "handoff": "handoffs", "deletion_request": "deletion_requests",
           "action": "actions"}
_SAID = {"accepted": "was accepted", "rejected": "was rejected", "done": "was carried out",
         "not_done": "was reconciled as not done"}


async def unverified_acts(store: Store, session: str) -> list[dict[str, Any]]:
    """The claims of the session's imports whose record is still undecided here, first import first."""
    rows = await store.db.execute_fetchall(
        "SELECT payload FROM ledger WHERE session = ? AND kind = 'import' AND source = 'inspector' ORDER BY seq",
        (session,))
    seen: set[tuple[str, str]] = set()
    out: list[dict[str, Any]] = []
    for (payload,) in rows:
        for claim in _loaded(payload, session).get("unverified_acts") or []:
            type_, ident = str(claim.get("type")), str(claim.get("id"))
            if (type_, ident) in seen or type_ not in _TABLES:
                continue
            seen.add((type_, ident))
            found = await store.db.execute_fetchall(
                f"SELECT status FROM {_TABLES[type_]} WHERE session = ? AND id = ?", (session, ident))  # noqa: S608
            status = str(found[0][0]) if found else None
            if status != ACT_STATUSES[type_][1]:
                continue  # decided by a person here since (or gone): the act here settles it
            out.append({"type": type_, "id": ident, "claimed": str(claim.get("claimed")), "status": status})
    return out


def _loaded(payload: str, session: str) -> dict[str, Any]:
    """An import entry's payload; a row that is not JSON is a damaged store, said in one sentence
    (a claim skipped in silence would turn a "?" into a ✓)."""
    try:
        body = json.loads(payload)
    except ValueError:
        raise InspectorError(f"a ledger entry of session {inert(session)} cannot be read: the store is damaged; "
                             "`inspector verify STORE` says where", code="damaged_store") from None
    return body if isinstance(body, dict) else {}


def warnings(session: str, claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for c in claims:
        name = c["type"].replace("_", " ")
        out.append({"code": "unverified_act", "where": c["type"], "id": c["id"],
                    "message": f"the imported file says {name} {inert(c['id'])} {_SAID.get(c['claimed'], c['claimed'])}, but "
                               f"a sif file cannot prove who decided: it is {c['status']} here until a person decides "
                               "it (not judged as decided)"})
    return out
