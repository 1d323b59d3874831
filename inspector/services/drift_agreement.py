"""``drift --json``'s verdict, made of what ``check`` makes its verdict of, and the difference named.

Until verdict-ten ``drift --json`` computed its "verdict" from drift's own findings: a summary that
lost a confirmed fact survival reads (an evidence reference, a fact drift does not restate) or a
pending proposal was "clear" in ``drift --json`` and ``✗``/``?`` in ``check`` for the same session
and generation. Now the drift verdict adds the same generation's survival verdict
(services/survival_verdict.py, the function ``check`` reads), and the JSON carries ``check``'s own
verdict beside it with every reason they may still differ: ``check`` judges only the latest
generation, and its protocol, stub, candidate, handoff and log checks are no part of drift.
"""

from __future__ import annotations

from typing import Any

from inspector.domain.drift_headline import drift_verdict
from inspector.domain.unreadable import NOT_JUDGED_ALL
from inspector.services.checking import check_store
from inspector.services.drift import drift_context, generation_texts
from inspector.services.survival import survival_report
from inspector.services.survival_verdict import survival_verdict
from inspector.services.unjudged import UNJUDGED_CODES
from inspector.store.connection import Store

_RANK = {"clear": 0, "unknown": 1, "failed": 2}


def _worst(*verdicts: str) -> str:
    return max(verdicts, key=lambda v: _RANK[v])


async def drift_agreement(store: Store, session: str, generation: int, findings: list[Any]) -> dict[str, Any]:
    """The fields ``drift --json`` adds: ``verdict`` (drift and survival of ``generation``),
    ``verdict_parts``, survival's findings and warnings, and ``check`` (its verdict for the session,
    the generation it judges, whether it agrees, and why not)."""
    drift_v = drift_verdict(findings, NOT_JUDGED_ALL)
    ctx = await drift_context(store.db, session)  # the context drift read (kept inside reads_once)
    said = survival_verdict(session, await survival_report(store, session, generation, ctx=ctx))
    survival_v = "failed" if said.findings else "unknown" if said.warnings else "clear"
    verdict = _worst(drift_v, survival_v)
    checked = (await check_store(store, sessions=[session]))[0]
    latest = await _latest_generation(store, session)
    differs: list[str] = []
    if latest != generation:
        differs.append(f"check judges generation {latest}, the latest; this is generation {generation}")
    for part in ("protocol", "stubs", "candidates", "handoffs"):
        if getattr(checked, part):
            differs.append(f"check also fails the session's {part} ({len(getattr(checked, part))})")
    other = sorted({w["code"] for w in checked.warnings
                    if w.get("where") not in ("drift", "survival") and w["code"] in UNJUDGED_CODES})
    if other:
        differs.append("check also reads warnings drift does not: " + ", ".join(other))
    if checked.verdict != verdict and not differs:  # never a silent disagreement
        differs.append(f"check's drift and survival say {checked.verdict}, this generation's say {verdict}")
    return {"verdict": verdict, "verdict_parts": {"drift": drift_v, "survival": survival_v},
            "survival": said.findings, "survival_warnings": said.warnings,
            "check": {"verdict": checked.verdict, "generation": latest, "agrees": checked.verdict == verdict,
                      "differs_because": differs if checked.verdict != verdict else []}}


async def _latest_generation(store: Store, session: str) -> int | None:
    gens = await generation_texts(store, session)  # the generation check judges (drift's "latest")
    return gens[0].generation if gens else None


__all__ = ["drift_agreement"]
