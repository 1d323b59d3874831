"""Drift rules that read what a summary *says* about a fact, not only whether it is there.

One import point for drift, survival, regress and the services; each rule lives in its
own module around ``Said`` (the generation's normalised text, ``said.py``):

* ``said_claims`` — done claims about open issues and actions (and blanket claims);
* ``said_failures`` — failures mentioned, or described as having gone well;
* ``said_negation`` — protected values cancelled, weakened or lifted;
* ``said_decisions`` — rejected alternatives stated as the choice, disputes flattened;
* ``said_untrusted`` — rules from untrusted output repeated as instructions;
* ``citations`` — cited refs that do not exist or lie outside the range;
* ``drift_context`` — what the rules need from the raw log.

Each rule names the key, the generation and the words that triggered it, and stays
silent unless its evidence is in the text: a faithful generation yields nothing. Words
come from ``words/*.json`` (see ``wordlists``). Rules only judge facts whose sources lie
inside the range the generation covers — a summary is not blamed for what came later.
"""

from __future__ import annotations

from inspector.domain.citations import cited_outside
from inspector.domain.drift_context import ActionFact, DriftContext
from inspector.domain.said import Hits, Said, norm_phrase, value_in
from inspector.domain.said_claims import (
    NEGATION_REACH,
    action_claimed_done,
    blanket_claim,
    done_claim,
    done_clauses,
    subject_terms,
)
from inspector.domain.said_decisions import mentions_in, reversed_choice
from inspector.domain.said_failures import (
    failure_claimed_fixed,
    mentioned_anywhere,
    tool_said_failed,
)
from inspector.domain.said_lifted import goal_restated, unit_in, unit_of
from inspector.domain.said_referred import dismisses
from inspector.domain.said_sections import negated_anywhere as negated_value
from inspector.domain.said_untrusted import (
    reports_not_instructs,
    rule_probe,
    synonyms,
    untrusted_rule_in,
)

__all__ = ["NEGATION_REACH", "ActionFact", "DriftContext", "Hits", "Said", "action_claimed_done", "blanket_claim",
           "cited_outside", "dismisses", "done_claim", "done_clauses", "goal_restated", "unit_in", "unit_of", "failure_claimed_fixed", "mentioned_anywhere",
           "mentions_in", "negated_value", "norm_phrase", "reports_not_instructs", "reversed_choice", "rule_probe",
           "subject_terms", "synonyms", "tool_said_failed", "untrusted_rule_in", "value_in"]
