"""What makes a session's verdict "?" rather than ✓: the warnings that say something was not judged.

Shared by ``check`` (its "?" line and ``--json`` warnings) and the app's header (its "? N not
judged" badge), so both count the same things: drift's warnings that a rule could not judge a
sentence or a name (``NOT_JUDGED``), survival's lost or unknown facts when drift judged none of
the pending proposals (``facts_lost`` / ``facts_unknown``), and acts an imported file claimed
that nobody made here (``unverified_act``, services/claims.py).
"""

from __future__ import annotations

from typing import Any

from inspector.domain.drift import Finding
from inspector.domain.unreadable import NOT_JUDGED_ALL as NOT_JUDGED
from inspector.services.survival import SurvivalReport, survival_report
from inspector.store.connection import Store

# Warnings that say a green is not one: drift judged no pending proposal and survival found
# facts the latest generation lost, or cannot tell about (a check line is then "?", not "✓").
# A drift warning that says a rule could not judge a sentence (said_departures.CANNOT_JUDGE)
# turns the line to "?" as well, and so do names the summary gives that the log cannot confirm
# (``identifier_unverified``: a continued or partly deleted log) — the rule says it cannot tell
# whether they were invented, so the line cannot say "✓". An act a sif file claimed that nobody
# made here (``unverified_act``) is "?" too: the file says decided, the store says undecided.
UNJUDGED_CODES = frozenset({"facts_lost", "facts_unknown", "unverified_act", "lines_unread"}) | NOT_JUDGED


async def unjudged_and_lost(store: Store, session: str, found: list[Finding],
                            report: SurvivalReport | None = None) -> list[dict[str, Any]]:
    """Drift's warnings a reader of ``check`` needs (names it cannot verify), and — when drift
    judged none of the pending proposals — what survival says of them: lost or unknown is a
    warning that turns the line to "?"; all kept needs no line (survival judged them).
    ``report``: the latest generation's survival report, when the caller made it already."""
    out = [{"code": f.code, "where": "drift", "id": session, "message": f.message}
           for f in found if f.code in NOT_JUDGED]
    if not any(f.code == "facts_not_judged" for f in found):
        return out
    report = report or await survival_report(store, session)
    counts = report.result.counts if report.result else {}
    lost, unknown = counts.get("missing", 0) + counts.get("contradicted", 0), counts.get("unknown", 0)
    detail = (f"{report.headline()}: {counts.get('missing', 0)} missing, {counts.get('contradicted', 0)} contradicted, "
              f"{unknown} unknown; drift judges none of them until confirmed (inspector survival --session {session}).")
    if lost:
        out.append({"code": "facts_lost", "where": "survival", "id": session, "message": detail})
    elif unknown:
        out.append({"code": "facts_unknown", "where": "survival", "id": session, "message": detail})
    return out
