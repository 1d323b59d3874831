"""``check``: every check over every session, for CI (DESIGN §8).

Pending candidates are validated, pending handoffs checked, the latest summary
generation checked for drift and survival (services/survival_verdict.py), the raw log for protocol problems, and every stub against the
material it names. Decided candidates
and handoffs are history, not findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.deletion import reason_code
from inspector.domain.errors import BadInput
from inspector.domain.terminal_safe import inert
from inspector.services import candidates, claims, cleared, handoffs, unread_lines
from inspector.services.action_rules import rule_acts, rule_findings
from inspector.services.content_warnings import content_warnings
from inspector.services.drift import latest_findings_and_context
from inspector.services.overview import protocol_problems
from inspector.services.sessions import list_sessions
from inspector.services.stub_checks import session_stub_problems
from inspector.services.survival import survival_report
from inspector.services.survival_verdict import survival_verdict
from inspector.services.unjudged import UNJUDGED_CODES as UNJUDGED_CODES  # re-exported: tests, scripts
from inspector.services.unjudged import unjudged_drift
from inspector.store import session_rows
from inspector.store.connection import Store
from inspector.store.tables import SPECS


@dataclass(slots=True)
class SessionCheck:
    session: str
    protocol: list[dict[str, Any]] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    drift: list[dict[str, Any]] = field(default_factory=list)
    # Confirmed facts the latest generation lost or contradicts (services/survival_verdict.py): ✗.
    survival: list[dict[str, Any]] = field(default_factory=list)
    # The latest generation's survival count as the header says it ("1/5 kept, 2 lost, 1 not restated"):
    # its "lost" is len(survival); None when survival did not run or there is no generation to judge.
    survival_tally: dict[str, int] | None = None
    survival_headline: str | None = None  # "gen 3: 1 of 5 facts kept, 2 lost, 1 not restated, …", as `survival` says it
    handoffs: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)  # shown, never blocking
    stubs: list[dict[str, Any]] = field(default_factory=list)
    # Tool results a micro-compaction cleared from the model's context (services/cleared.py): listed, no verdict.
    cleared_results: list[dict[str, Any]] = field(default_factory=list)
    # Acts an imported sif file claimed that nobody made here (services/claims.py): each is also a warning.
    unverified_acts: list[dict[str, Any]] = field(default_factory=list)
    # The agent's tool calls against a confirmed rule, done exactly (services/action_rules.py): ✗.
    # Calls that may break a rule, or break a pending one, are warnings ("?"); dry runs are listed.
    action_rule: list[dict[str, Any]] = field(default_factory=list)
    # what the rules check read: rules read as an act, rules no call can show, rules not counted
    rules_read: dict[str, Any] | None = None
    # Deletion requests filed and not carried out (review-15 item 1): what is about to be removed,
    # listed so a CI reader sees it; never a verdict (filing one does not change the exit code).
    deletion_requests: list[dict[str, Any]] = field(default_factory=list)
    ran: tuple[str, ...] = ()  # the checks that ran (``--only`` may leave some out)
    # what `check`'s line shows beside the id: "? 0cf3db51-…" alone named none of a team's 34 sessions
    title: str | None = None

    @property
    def ok(self) -> bool:
        return not (self.protocol or self.candidates or self.drift or self.survival or self.handoffs or self.stubs
                    or self.action_rule)

    @property
    def verdict(self) -> str:
        """``failed`` (something refused), ``unknown`` (nothing refused, but a check could not
        judge something it read: a warning in UNJUDGED_CODES) or ``clear``. ``ok`` alone reads as
        an all-clear to a script, so the JSON carries this too (check's line: ✗, ? or ✓)."""
        if not self.ok:
            return "failed"
        return "unknown" if any(w["code"] in UNJUDGED_CODES for w in self.warnings) else "clear"

    def as_dict(self) -> dict[str, Any]:
        return {"session": self.session, "title": self.title, "ok": self.ok, "verdict": self.verdict, "protocol": self.protocol,
                "candidates": self.candidates,
                "drift": self.drift, "survival": self.survival, "survival_tally": self.survival_tally,
                "survival_headline": self.survival_headline,
                "handoffs": self.handoffs, "warnings": self.warnings, "stubs": self.stubs,
                "action_against_rule": self.action_rule, "rules_read": self.rules_read,
                "cleared_results": self.cleared_results,
                "unverified_acts": self.unverified_acts, "pending_deletion_requests": self.deletion_requests,
                "checks_run": list(self.ran)}


CHECKS = ("protocol", "stubs", "candidates", "drift", "survival", "rules", "handoffs", "warnings")


async def check_store(store: Store, *, sessions: list[str] | None = None,
                      only: list[str] | None = None) -> list[SessionCheck]:
    """Every check (or ``only`` those named in ``CHECKS``) over every session (or ``sessions``).
    A CI job can so gate on drift alone while protocol problems of an immutable log stay listed
    elsewhere; a check not run is absent from the result, never reported as passed."""
    wanted = set(only or CHECKS)
    unknown = wanted - set(CHECKS)
    if unknown:
        raise BadInput(f"unknown check {inert(sorted(unknown)[0])}: choose from {', '.join(CHECKS)}")
    listed = await list_sessions(store)
    if sessions:
        missing = [s for s in sessions if s not in {i.id for i in listed}]
        if missing:
            raise await session_rows.no_session(store.db, missing[0], store.path.name)
        listed = [i for i in listed if i.id in sessions]
    out: list[SessionCheck] = []
    for info in listed:
        result = SessionCheck(info.id, ran=tuple(c for c in CHECKS if c in wanted), title=info.title)
        if "protocol" in wanted:
            result.protocol = [p.as_dict() for p in await protocol_problems(store, info.id, info.adapter)]
        if "stubs" in wanted:
            result.stubs = [p.as_dict() for p in await session_stub_problems(store.db, info.id)]
        if "candidates" in wanted:
            for cand, v in await candidates.list_candidates(store, info.id):
                if cand["status"] == "pending" and v.refusals:
                    result.candidates.append({"candidate": cand["id"],
                                              "refusals": [r.as_dict() for r in v.refusals]})
        # drift and survival judge the same raw log: read once for both
        found, ctx = await latest_findings_and_context(store, info.id) if wanted & {"drift", "survival"} else ([], None)
        if "drift" in wanted:
            result.drift = [f.as_dict() for f in found if f.severity == "finding"]
            result.warnings += unjudged_drift(info.id, found)
            lost_context = await cleared.cleared_results(store, info.id)
            result.cleared_results = [c.as_dict() for c in lost_context]
            result.warnings += cleared.warnings(info.id, lost_context)
        if "survival" in wanted:  # the latest generation's survival, as the header reads it
            report = await survival_report(store, info.id, ctx=ctx)
            said = survival_verdict(info.id, report)
            result.survival, result.warnings = said.findings, result.warnings + said.warnings
            if report.result is not None:
                result.survival_tally, result.survival_headline = report.result.tally()._asdict(), report.headline()
        if "rules" in wanted:
            acts = await rule_acts(store, info.id)
            result.action_rule, said = rule_findings(info.id, acts)
            result.warnings += said
            result.rules_read = {k: v for k, v in acts.as_dict().items() if k != "hits"}
        if "handoffs" in wanted:
            for h, c in await handoffs.list_handoffs(store, info.id):
                if h["status"] == "pending" and not c.acceptable:
                    result.handoffs.append({"handoff": h["id"], "refusals": [r.as_dict() for r in c.refusals]})
        if "warnings" in wanted:
            result.warnings += await content_warnings(store, info.id)
            result.unverified_acts = await claims.unverified_acts(store, info.id)
            result.warnings += claims.warnings(info.id, result.unverified_acts)
            unread = await unread_lines.unread_lines(store, info.id)
            if unread:  # no check saw those lines: "?", not an all-clear
                result.warnings.append({"code": "lines_unread", "where": "log", "id": info.id,
                                        "count": len(unread), "lines": [u.line for u in unread],
                                        "message": unread_lines.said(unread)})
            result.deletion_requests = await pending_deletions(store, info.id)
        out.append(result)
    return out


async def pending_deletions(store: Store, session: str) -> list[dict[str, Any]]:
    """The session's pending deletion requests: id, targets, reason code and who filed it — never
    the reason's text (it is kept in clear only until the deletion digests it)."""
    spec = SPECS["deletion_request"]
    rows = await store.db.execute_fetchall(f"SELECT {spec.select_columns} FROM {spec.table} "
                                           "WHERE session = ? AND status = 'pending' ORDER BY id", (session,))
    out = []
    for row in rows:
        req = spec.to_record(row)
        out.append({"request": req["id"], "targets": list(req.get("targets") or []),
                    "reason_code": reason_code(req), "requested_by": req.get("requested_by")})
    return sorted(out, key=lambda r: (len(r["request"]), r["request"]))  # del-2 before del-10
