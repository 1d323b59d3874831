"""Corrections as new ledger events: state records, summary generations, owner confirmation.

Authority (DESIGN rule 3): goal, constraint, permission and acceptance change only by the
session's owner; anyone else's correction of those kinds becomes a ``pending`` version the
owner confirms or rejects. Other kinds any reviewer may correct. Old versions stay, marked
superseded. ``context_version`` grows when the active state or summary changes, so
candidates built before become stale; ``goal_revision`` grows when the active goal changes.
The ledger keeps versions, reasons and keyed digests, not the values themselves.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

import aiosqlite

from inspector.domain.canonical import keyed_digest
from inspector.domain.errors import BadInput, Refusal, no_generation
from inspector.domain.goal_reworded import CODE as GOAL_REWORDED
from inspector.domain.guarded_json import INT_MAX, INT_MIN
from inspector.domain.said_departures import CANNOT_JUDGE
from inspector.domain.sif import identity_digest
from inspector.domain.terminal_safe import quoted
from inspector.domain.trust import new_key, reason_text, record_text, reviewer_name
from inspector.domain.vocabulary import OWNER_ONLY_KINDS, STATE_KINDS
from inspector.services import confirmations
from inspector.services.drift import check_text
from inspector.store import ledger, session_rows
from inspector.store.connection import Store, fetch_one, utc_now
from inspector.store.tables import SPECS


@dataclass(slots=True)
class Outcome:
    key: str | None
    version: int | None
    status: str
    context_version: int
    goal_revision: int
    refusals: list[Refusal]
    generation: int | None = None
    parent: int | None = None
    findings: list[dict[str, Any]] = field(default_factory=list)  # drift of a corrected text
    # Sentences of a corrected text the rules could not judge (said_departures.CANNOT_JUDGE):
    # never saved without saying so.
    warnings: list[dict[str, Any]] = field(default_factory=list)
    # Who may confirm a correction filed pending (the session's owner), so the reply says the way on.
    may_confirm: str | None = None

    def as_dict(self) -> dict[str, Any]:
        if self.generation is not None or self.status == "refused" and self.parent is not None:
            return {"generation": self.generation, "kind": "corrected", "parent": self.parent,
                    "status": self.status, "context_version": self.context_version,
                    "refusals": [r.as_dict() for r in self.refusals], "findings": self.findings,
                    "warnings": self.warnings}
        out = asdict(self)
        out["refusals"] = [r.as_dict() for r in self.refusals]
        out.pop("generation"), out.pop("parent"), out.pop("findings"), out.pop("warnings")
        if out["may_confirm"] is None:  # said only of a correction filed pending
            out.pop("may_confirm")
        return out


async def _set_versions(db: aiosqlite.Connection, session: str, cv: int, gr: int) -> None:
    await session_rows.set_versions(db, session, context_version=cv, goal_revision=gr)


# Fields of a record that describe its value rather than restate it: a correction of the value
# carries them forward (a decision keeps its rationale and the alternatives it set aside)
# unless the reviewer gives new ones.
CARRIED_FIELDS = ("rationale", "alternatives")


def _reason_given(reason: str, act: str) -> None:
    """The app's dialogs ask for a reason before they write; the CLI took --reason '' as one."""
    reason_text(reason)
    if not reason.strip():
        raise BadInput(f"a {act} needs a reason (--reason), recorded in the ledger; nothing was written",
                       code="reason_required")


def _typed_fields(value: str, rationale: str | None, alternatives: list[str] | None) -> None:
    """A correction's typed text follows the reason's rule (domain/trust.typed_text): refused, nothing
    written, when it holds control, bidi or invisible characters."""
    record_text(value, "a protected value", "value_invalid")
    if rationale is not None:
        record_text(rationale, "a rationale", "rationale_invalid")
    for alternative in alternatives or []:
        record_text(alternative, "an alternative", "alternative_invalid")


async def correct(store: Store, session: str, key: str, value: str, *, reason: str, actor: str,
                  kind: str | None = None, rationale: str | None = None,
                  alternatives: list[str] | None = None) -> Outcome:
    actor = reviewer_name(actor)
    _reason_given(reason, "correction")
    if not value.strip():  # a protected record of no value binds nothing; filed, it stood as the goal ""
        raise BadInput(f"the new value of {key} is empty; nothing was written", code="value_required")
    _typed_fields(value, rationale, alternatives)
    async with store.transaction() as db:
        owner, cv, gr = await confirmations.session_versions(db, session)
        versions = await confirmations.key_versions(db, session, key)
        if not versions and kind is None:
            raise await confirmations.no_record(db, session, key, "(to add a new one, pass --kind)")
        if not versions:
            new_key(key)
        if kind is not None and kind not in STATE_KINDS:
            raise BadInput(f"unknown kind {quoted(kind)}; one of {', '.join(STATE_KINDS)}")
        kind = versions[-1]["kind"] if versions else kind
        active = next((v for v in reversed(versions) if v["status"] == "active"), None)
        is_owner = owner is not None and actor == owner
        status = "pending" if kind in OWNER_ONLY_KINDS and not is_owner else "active"
        if active is not None and active["value"] == value and status == "active":
            return Outcome(key, active["version"], active["status"], cv, gr,
                           [Refusal("no_change", f"{key} is already “{value}” (v{active['version']}).")])
        latest = versions[-1] if versions else None
        if latest is not None and latest["status"] == "pending" and latest["value"] == value:
            # the same value again would leave that proposal pending behind it for good (stale_pending);
            # filed pending again by a reviewer (session 15) it did the same: two proposals, the older stuck
            who = "confirm it" if is_owner or owner is None else f"the session's owner ({owner}) confirms it"
            return Outcome(key, latest["version"], "pending", cv, gr, [Refusal(
                "no_change", f"{key} v{latest['version']} already proposes “{value}”; {who} instead of "
                "filing it again (`inspector confirm`, or y in the app).")], may_confirm=owner)
        new_version = (versions[-1]["version"] if versions else 0) + 1
        seq, _ = await ledger.ledger_tail(db)
        record = {"type": "state", "session": session, "key": key, "kind": kind, "value": value,
                  "sources": [f"ledger:{seq + 1}"], "writer": "owner" if is_owner else "reviewer", "at": utc_now(),
                  "scope": (active or (versions[-1] if versions else {})).get("scope", "task"),
                  "version": new_version, "status": status}
        previous = active or (versions[-1] if versions else {})
        given = {"rationale": rationale, "alternatives": alternatives}
        carried = []
        for name in CARRIED_FIELDS:
            if given[name] is not None:
                record[name] = given[name]
            elif previous.get(name) is not None:
                record[name] = previous[name]
                carried.append(name)
        await db.execute(SPECS["state"].insert_sql, SPECS["state"].to_row(record, identity_digest("state", record)))
        status_sets = [confirmations.status_entry(session, key, new_version, status)]
        if status == "active":
            if active is not None:
                await db.execute("UPDATE state_records SET status = 'superseded' WHERE session = ? AND key = ? "
                                 "AND version = ?", (session, key, active["version"]))
                status_sets.append(confirmations.status_entry(session, key, active["version"], "superseded"))
            cv, gr = cv + 1, gr + (1 if kind == "goal" else 0)
            await _set_versions(db, session, cv, gr)
        await ledger.append(db, [ledger.NewEntry(session, "correction", actor, {
            "target": f"state:{key}", "key": key, "kind": kind, "old_version": active["version"] if active else None,
            "new_version": new_version, "status": status, "reason": reason, "carried": carried,
            "changed": [n for n in CARRIED_FIELDS if given[n] is not None],
            "old_digest": keyed_digest(store.digest_key, active["value"].encode()) if active else None,
            "new_digest": keyed_digest(store.digest_key, value.encode()),
            "context_version": cv, "goal_revision": gr, "added": {"state": 1}, "status_set": status_sets})])
    return Outcome(key, new_version, status, cv, gr, [], may_confirm=owner if status == "pending" else None)


async def confirm(store: Store, session: str, key: str, *, actor: str, reject: bool = False,
                  reason: str = "", version: int | None = None) -> Outcome:
    """The owner confirms (or rejects) the pending version of ``key`` (its latest, or ``version``);
    the rule is :func:`inspector.services.confirmations.decide_pending`, shared with bulk decisions."""
    actor = reviewer_name(actor)
    reason_text(reason)
    async with store.transaction() as db:
        owner, cv, gr = await confirmations.session_versions(db, session)
        got = await confirmations.decide_pending(db, session, owner, key, actor=actor, reject=reject, version=version)
        if isinstance(got, confirmations.Refused):
            return Outcome(key, got.version, got.status or "", cv, gr, [got.refusal])
        new_cv, new_gr = confirmations.bumped([got], cv, gr)
        if (new_cv, new_gr) != (cv, gr):
            await _set_versions(db, session, new_cv, new_gr)
        await ledger.append(db, [confirmations.entry(session, actor, got, reason=reason, context_version=new_cv,
                                                     goal_revision=new_gr)])
    return Outcome(key, got.version, got.status, new_cv, new_gr, [])


async def correct_summary(store: Store, session: str, generation: int, text: str, *, reason: str, actor: str,
                          unresolved: list[str] | None = None, save_anyway: bool = False,
                          hold_doubts: bool = False) -> Outcome:
    """A new generation of kind ``corrected`` whose parent is the corrected one; it becomes
    the next generation's starting point.

    The new text is checked for drift before it is saved: with findings it is refused
    (``summary_has_findings``, one refusal per finding) unless ``save_anyway``, which the
    ledger entry then records with the codes it was saved with. Sentences the rules cannot
    judge (``reference_unresolved``, ``forbidden_action_unclear``) come back as ``warnings``
    and are recorded in the ledger entry (``saved_with_doubts``); with ``hold_doubts`` (the
    correction dialog, where the reviewer is there to decide) they hold the text like a
    finding (``summary_not_judged``) unless ``save_anyway``."""
    actor = reviewer_name(actor)
    _reason_given(reason, "corrected summary")
    async with store.transaction() as db:
        _owner, cv, gr = await confirmations.session_versions(db, session)
        spec = SPECS["summary"]
        row = (await fetch_one(db, f"SELECT {spec.select_columns} FROM summaries WHERE session = ? AND generation = ?",
                               (session, generation))
               if INT_MIN <= generation <= INT_MAX else None)  # past SQLite's INTEGER: no generation (OverflowError)
        if row is None:
            raise no_generation(session, generation, [int(r[0]) for r in await db.execute_fetchall(
                "SELECT generation FROM summaries WHERE session = ?", (session,))])
        parent = spec.to_record(row)
        if not text.strip():
            raise BadInput("the corrected text is empty")
        record_text(text, "a corrected summary", "summary_text_invalid")
        last = await fetch_one(db, "SELECT MAX(generation) FROM summaries WHERE session = ?", (session,))
        if unresolved is None:
            unresolved = [r[0] for r in await db.execute_fetchall(
                "SELECT value FROM state_records WHERE session = ? AND ((kind = 'open_issue' AND status = 'active') "
                "OR (kind = 'decision' AND status = 'pending')) ORDER BY key", (session,))]
        checked = await check_text(store, session, text, unresolved, parent)
        findings = [f for f in checked if f.severity == "finding"]
        # a goal reworded is a doubt too: saved clean, the correction read as judged in full (verdict-real-four)
        doubts = [f for f in checked if f.code in CANNOT_JUDGE or f.code == GOAL_REWORDED]
        warnings = [f.as_dict() for f in doubts]
        if findings and not save_anyway:
            return Outcome(None, None, "refused", cv, gr, [
                Refusal("summary_has_findings", f"{f.code}: {f.message}") for f in findings], generation=None,
                parent=generation, findings=[f.as_dict() for f in findings], warnings=warnings)
        if doubts and hold_doubts and not save_anyway:
            return Outcome(None, None, "refused", cv, gr, [
                Refusal("summary_not_judged", f"{f.code}: {f.message}") for f in doubts], generation=None,
                parent=generation, warnings=warnings)
        new_gen, cv = int(last[0]) + 1, cv + 1
        seq, _ = await ledger.ledger_tail(db)
        record = {"type": "summary", "session": session, "generation": new_gen, "parent": generation,
                  "kind": "corrected", "text": text, "base_version": cv, "unresolved": unresolved,
                  "sources": [*parent.get("sources", []), f"ledger:{seq + 1}"]}
        if parent.get("covers"):
            record["covers"] = parent["covers"]
        await db.execute(spec.insert_sql, spec.to_row(record, identity_digest("summary", record)))
        await _set_versions(db, session, cv, gr)
        await ledger.append(db, [ledger.NewEntry(session, "summary.correction", actor, {
            "generation": new_gen, "parent": generation, "reason": reason,
            "text_digest": keyed_digest(store.digest_key, text.encode()), "context_version": cv,
            "goal_revision": gr, "added": {"summary": 1},
            **({"saved_anyway_with": [f.code for f in findings]} if findings else {}),
            **({"saved_with_doubts": sorted({f.code for f in doubts})} if doubts else {})})])
    return Outcome(None, None, "corrected", cv, gr, [], generation=new_gen, parent=generation,
                   findings=[f.as_dict() for f in findings], warnings=warnings)


async def history(store: Store, session: str, key: str) -> list[dict[str, Any]]:
    """Every version of ``key`` with who wrote it, why, and the ledger entry that did."""
    versions = await confirmations.key_versions(store.db, session, key)
    if not versions:
        await confirmations.session_versions(store.db, session)  # no such session: say that, not "no record"
        raise await confirmations.no_record(store.db, session, key)
    acts = await store.db.execute_fetchall(
        "SELECT seq, kind, actor, at, payload FROM ledger WHERE session = ? AND kind IN ('correction', 'confirmation') "
        "AND json_extract(payload, '$.key') = ? ORDER BY seq", (session, key))
    by_version: dict[int, list[dict[str, Any]]] = {}
    for seq, kind, actor, at, payload in acts:
        body = json.loads(payload)
        version = body.get("new_version", body.get("version"))
        by_version.setdefault(int(version), []).append(
            {"ledger": seq, "kind": kind, "actor": actor, "at": at, "reason": body.get("reason"),
             "decision": body.get("decision")})
    return [{"version": v["version"], "value": v["value"], "status": v["status"], "writer": v.get("writer"),
             "at": v.get("at"), "sources": v.get("sources", []), "acts": by_version.get(v["version"], [])}
            for v in versions]
