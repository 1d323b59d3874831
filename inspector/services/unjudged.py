"""What makes a session's verdict "?" rather than ✓: the warnings that say something was not judged.

Shared by ``check`` (its "?" line and ``--json`` warnings) and the app's header (its "? N not
judged" badge), so both count the same things: drift's warnings that a rule could not judge a
sentence or a name (``NOT_JUDGED``), survival's unknown facts and lost pending ones
(``facts_unknown`` / ``facts_lost``, services/survival_verdict.py), and acts an imported file claimed
that nobody made here (``unverified_act``, services/claims.py).
"""

from __future__ import annotations

from typing import Any

from inspector.domain.drift import Finding
from inspector.domain.unreadable import NOT_JUDGED_ALL as NOT_JUDGED
from inspector.services.survival import SurvivalReport, survival_report
from inspector.services.survival_verdict import survival_verdict
from inspector.store.connection import Store

# Warnings that say a green is not one: survival cannot tell whether the latest generation keeps
# a fact, or it lost a pending (unconfirmed) one (a check line is then "?", not "✓").
# A drift warning that says a rule could not judge a sentence (said_departures.CANNOT_JUDGE)
# turns the line to "?" as well, and so do names the summary gives that the log cannot confirm
# (``identifier_unverified``: a continued or partly deleted log) — the rule says it cannot tell
# whether they were invented, so the line cannot say "✓". An act a sif file claimed that nobody
# made here (``unverified_act``) is "?" too: the file says decided, the store says undecided; and so
# is a confirmed evidence reference the summary does not name (``facts_not_restated``).
# A tool call that may do what a confirmed rule forbids, or does what a pending one forbids
# (services/checking.rule_findings), is "?" as well; a dry run of it is listed only.
UNJUDGED_CODES = frozenset({"facts_lost", "facts_unknown", "facts_not_restated", "unverified_act",
                            "lines_unread", "action_rule_unsure", "action_rule_pending",
                            "action_rule_not_read"}) | NOT_JUDGED


async def unjudged_and_lost(store: Store, session: str, found: list[Finding],
                            report: SurvivalReport | None = None) -> list[dict[str, Any]]:
    """Drift's warnings a reader of ``check`` needs (names it cannot verify), and what survival
    says of the latest generation (services/survival_verdict.py): a fact it cannot judge, or a
    pending one it lost, is a warning that turns the line to "?". Survival is read whether or
    not drift judged the facts: a confirmed goal survival calls ``unknown`` showed "✓ clear".
    ``report``: the latest generation's survival report, when the caller made it already."""
    report = report or await survival_report(store, session)
    return unjudged_drift(session, found) + survival_verdict(session, report).warnings


def unjudged_drift(session: str, found: list[Finding]) -> list[dict[str, Any]]:
    """Drift's warnings that a rule could not judge a sentence or a name (``check --only drift``)."""
    # A code that is a finding in one case and a warning in another (completion_unshown): only the
    # warning says a rule could not judge; the finding is drift's ✗ line already.
    return [{"code": f.code, "where": "drift", "id": session, "message": f.message}
            for f in found if f.code in NOT_JUDGED and f.severity == "warning"]
