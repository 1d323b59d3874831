"""What a generation's drift comes to, and what drift did not judge: the headline the Drift tab,
``inspector drift``, ``check`` and the HTML report print, the codes that make it a ``?``
rather than a ✓ (``NOT_JUDGED``), pending records drift leaves to survival, names the log
cannot confirm, and a record's "not judged" dropped where a finding about it says more.

"No drift" is only ever said of what the rules read: a sentence they could not judge, a name
the log cannot confirm or a pending fact is named in the headline (DESIGN rule 6).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from inspector.domain.drift_finding import Finding
from inspector.domain.drift_rules import DriftContext
from inspector.domain.facts import EXTRACTOR
from inspector.domain.invented import invented
from inspector.domain.plurals import counted as _n
from inspector.domain.said_departures import CANNOT_JUDGE
from inspector.domain.vocabulary import OWNER_ONLY_KINDS

if TYPE_CHECKING:
    from inspector.domain.drift import StateFact

# Writers whose proposals may carry an injected rule. The extractor is not among them: it
# proposes only from the user's own words (and from tool *inputs*, never outputs as rules).
UNTRUSTED_WRITERS = frozenset({"tool", "model"})


def judged_once(found: list[Finding], said_findings: list[Finding]) -> list[Finding]:
    """A record already found missing or rewritten needs no "not judged" about its subject
    (said_subject): the finding says more."""
    if not any(f.code == "subject_unjudged" for f in said_findings):
        return said_findings
    keys = {f.key for f in (*found, *said_findings) if f.severity == "finding"}
    return [f for f in said_findings if not (f.code == "subject_unjudged" and f.key in keys)]


def identifier_findings(generation: int, text: str, ctx: DriftContext) -> list[Finding]:
    """Paths, file names and backticked code words the text names that no event, tool input
    or stored original of the session holds (``domain/invented.py``): invented when the log
    is whole, unverified (a warning: the rule cannot tell) when it is not."""
    if ctx.evidence is None:
        return []
    absent = invented(text, ctx.evidence)
    if not absent:
        return []
    names = tuple(n.text for n in absent)
    shown = ", ".join(f"“{n}”" for n in names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    if ctx.evidence_whole:
        return [Finding("invented_identifier", None,
                        f"generation {generation} names {shown}, which no event, tool input or stored original "
                        "of the session holds.", words=names)]
    why = ctx.evidence_gap or "it cannot tell whether this log is whole"
    return [Finding("identifier_unverified", None,
                    f"generation {generation} names {shown}, which this session's evidence does not hold; "
                    f"{why}, so the rule cannot say whether they are invented.", "warning", words=names)]


# Warnings left out of a generation that already has a finding (said_completion, said_stale_path,
# output_said_values): a "?" changes nothing beside a ✗, which already sends the reviewer to the text;
# a corrected generation without the ✗ is judged with them.
BESIDE_FAILED = frozenset({"completion_unshown", "path_misplaced", "value_misstated"})


def beside_failed(findings: list[Finding]) -> list[Finding]:
    if not any(f.severity == "finding" for f in findings):
        return findings
    return [f for f in findings if not (f.code in BESIDE_FAILED and f.severity == "warning")]


# Warnings that say a rule could not judge what it read: a generation with one of them is never
# shown as all-clear (the Drift tab's "?", check's "?"): a sentence whose reference the rules
# cannot resolve, and names the summary gives that the log cannot confirm.
NOT_JUDGED = CANNOT_JUDGE | {"identifier_unverified"}


def headline(findings: list[Finding]) -> str:
    """What a generation's drift comes to, saying what was not judged: "no drift" is only
    said of the records drift read."""
    blocking = sum(1 for f in findings if f.severity == "finding")
    if blocking:
        return _n(blocking, "finding")
    parts = []
    unsure = [f.code for f in findings if f.code in CANNOT_JUDGE]
    if unsure:
        # A sentence the rules could not resolve is not "no drift": say it was not judged.
        parts.append(f"{_n(len(unsure), 'sentence')} not judged ({', '.join(sorted(set(unsure)))})")
    unverified = next((f for f in findings if f.code == "identifier_unverified"), None)
    if unverified is not None:  # names it cannot confirm: whether they were invented is not judged
        named = _n(len(unverified.words), "name") if unverified.words else "some names"
        parts.append(f"{named} the log cannot confirm (identifier_unverified)")
    unjudged = next((f for f in findings if f.code == "facts_not_judged"), None)
    pending = unjudged.message.split(": ", 1)[1].split(" ", 1)[0] if unjudged is not None else None
    if parts:
        if pending is not None:
            parts.append(f"{pending} pending not judged (see survival)")
        return "no finding; " + "; ".join(parts)
    if pending is not None:
        return f"no drift in the active records; {pending} pending not judged (see survival)"
    return "no drift found"


def drift_verdict(findings: list[Finding], unjudged: frozenset[str] = NOT_JUDGED) -> str:
    """``failed`` (a finding), ``unknown`` (none, but a sentence or a name the rules could not
    judge: ``unjudged``, by default ``NOT_JUDGED``) or ``clear`` — the words ``check --json``
    uses per session, so a script reading ``drift --json`` never takes "no blocking finding" for
    an all-clear."""
    if any(f.severity == "finding" for f in findings):
        return "failed"
    return "unknown" if any(f.code in unjudged for f in findings) else "clear"


def _not_judged(state: list[StateFact]) -> list[StateFact]:
    """Pending records in range that no drift rule reads (a pending decision is read as a
    dispute — not the extractor's, proposed from the user's own choice —, a tool's or the model's
    pending rule as an injected instruction)."""
    return [s for s in state if s.status == "pending" and (s.kind != "decision" or s.writer == EXTRACTOR)
            and not (s.writer in UNTRUSTED_WRITERS and s.kind in OWNER_ONLY_KINDS)]


def facts_not_judged(generation: int, state: list[StateFact]) -> Finding | None:
    """The warning that pending records in range were not judged, or None.

    Drift judges active records; a pending proposal (every fact of an imported transcript) is
    judged by survival only. "No drift" over them would be a green about facts nobody looked
    at: say they were not judged."""
    unjudged = _not_judged(state)
    if not unjudged:
        return None
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(Counter(s.kind for s in unjudged).items()))
    return Finding("facts_not_judged", None,
                   f"generation {generation}: {len(unjudged)} pending proposal"
                   f"{'s are' if len(unjudged) > 1 else ' is'} not judged by drift until confirmed "
                   f"({kinds}); survival shows whether the text kept them.", "warning")


__all__ = ["BESIDE_FAILED", "NOT_JUDGED", "UNTRUSTED_WRITERS", "beside_failed", "drift_verdict", "facts_not_judged", "headline", "identifier_findings",
           "judged_once"]
