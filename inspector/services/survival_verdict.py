"""What the latest generation's survival means for a session's verdict (✗, ? or ✓).

One function, read by ``check`` (and so by ``report``, which shows check's result) and by the
app's header badges (``overview.session_badges``), so no screen re-derives it. Before this,
check read survival only while drift judged none of the session's proposals: once the goals
were confirmed, a summary survival called ``unknown`` on three of them showed "✓ clear".

The rule (docs/verdicts.md, "check and survival"):

* a confirmed (active) fact the latest generation lost (``missing``) or ``contradicted`` is a
  finding — ✗, exit 1 — coded ``fact_missing`` / ``fact_contradicted``, with its key and the
  sentence that decided it;
* a confirmed fact survival cannot judge (``unknown``) is the warning ``facts_unknown``: "?",
  naming the facts;
* a confirmed fact of a kind no drift rule asks a summary to restate (an evidence reference,
  progress, an artifact, a reference: the protected channel carries it beside every summary)
  that the summary does not name is the warning ``facts_not_restated``: "?", never ✗ — the
  demo's accepted good candidate, which cites no ``res:run-184``, failed check for it, though
  nothing the next request loads was lost (lead, session 16); contradicting one is still ✗;
* a pending (unconfirmed) fact binds nothing, so losing or contradicting it is never ✗; but the
  line is never ✓ either: ``facts_lost`` (or ``facts_unknown``) names it and says "pending".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.survival import Verdict
from inspector.domain.survival_report import RESTATED_KINDS as RESTATED_KINDS  # re-exported: tests, scripts
from inspector.domain.survival_report import part
from inspector.services.survival import SurvivalReport

FINDING_CODE = {"missing": "fact_missing", "contradicted": "fact_contradicted"}
NAMED = 6  # facts named in a warning's sentence; --json lists every key


@dataclass(slots=True)
class SurvivalVerdict:
    """The findings (✗) and warnings (?) survival adds to a session's check, as check's dicts."""

    findings: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)


def _kind_and_key(kind: str, key: str) -> str:
    """"the confirmed constraint constraint.prod" said the kind twice (review-19 #6): a key that
    starts with its kind names it already ("the confirmed constraint.prod"); another key keeps it."""
    return key if key.startswith(f"{kind}.") else f"{kind} {key}"


def survival_verdict(session: str, report: SurvivalReport) -> SurvivalVerdict:
    """The latest generation's survival ``report`` as check findings and warnings (pure: the
    caller reads the report once, for the badges' headline too)."""
    out = SurvivalVerdict()
    if report.result is None:
        return out
    gen = report.generation
    # one rule with survival's own count (domain/survival_report.part): check's ✗ is survival's "lost"
    parts = [(part(v), v) for v in report.verdicts]
    not_restated = [v for p, v in parts if p == "not_restated"]
    for p, v in parts:
        if p == "lost":
            out.findings.append({
                "code": FINDING_CODE[v.verdict], "where": "survival", "id": session, "generation": gen,
                "key": v.fact.key, "kind": v.fact.kind, "sentence": v.where,
                "message": f"generation {gen} {'lost' if v.verdict == 'missing' else 'contradicts'} the confirmed "
                           f"{_kind_and_key(v.fact.kind, v.fact.key)} (“{_cut(v.fact.value)}”): {v.reason}"})
    if not_restated:
        out.warnings.append(_warning("facts_not_restated", session, gen, not_restated,
                                     "does not name the confirmed fact",
                                     " — the protected state carries it beside the summary, so not ✗; not ✓ either"))
    unknown = [v for p, v in parts if p == "not_judged" and v.fact.status == "active"]
    if unknown:
        out.warnings.append(_warning("facts_unknown", session, gen, unknown,
                                     "survival cannot tell whether it keeps the confirmed fact"))
    lost = [v for p, v in parts if p == "pending_lost"]
    if lost:
        out.warnings.append(_warning("facts_lost", session, gen, lost,
                                     "loses or contradicts the pending (unconfirmed) fact",
                                     " — pending binds nothing until confirmed, so not ✗; not ✓ either"))
    pending_unknown = [v for p, v in parts if p == "not_judged" and v.fact.status != "active"]
    if pending_unknown:
        out.warnings.append(_warning("facts_unknown", session, gen, pending_unknown,
                                     "survival cannot tell whether it keeps the pending (unconfirmed) fact"))
    return out


def mark(said: SurvivalVerdict) -> str:
    """The Survival tab's count, as check's line: "✗2" (confirmed facts lost), "?3" (facts not
    judged, or pending ones lost: never ✗, never bare), "" when survival kept every fact."""
    if said.findings:
        return f"✗{len(said.findings)}"
    unsure = sum(len(w["keys"]) for w in said.warnings)
    return f"?{unsure}" if unsure else ""


def _warning(code: str, session: str, gen: int | None, verdicts: list[Verdict], what: str,
             tail: str = "") -> dict[str, Any]:
    keys = [v.fact.key for v in verdicts]
    named = ", ".join(keys[:NAMED]) + (f" and {len(keys) - NAMED} more" if len(keys) > NAMED else "")
    plural = "s" if len(keys) > 1 else ""
    return {"code": code, "where": "survival", "id": session, "generation": gen, "keys": keys,
            "pending": verdicts[0].fact.status != "active",
            "message": f"generation {gen}: {what}{plural} {named}{tail} "
                       f"(inspector survival --session {session})."}


def _cut(value: str, width: int = 80) -> str:
    one = " ".join(value.split())
    return one if len(one) <= width else one[: width - 1] + "…"
