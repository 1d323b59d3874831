"""The verdicts on the labelled drift set are exactly the recorded ones.

Speed work on the rules (shared normal forms, caches, precompiled word lists, the split of
the rule modules) must not move a single finding or survival verdict: the precision floors
of tests/test_drift_precision.py would let a changed message, a different `where` sentence
or a verdict traded between two facts pass. This digest covers every finding of every item
(code, key, message, words, where), the field timeline, and every survival verdict (fact,
verdict, where, reason). When a rule changes on purpose, re-record it with
``python -m bench.verdict_digest`` after checking the diff of ``--dump`` runs before and after.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bench.verdict_digest import collect, digest

# Recorded before the split of domain/drift_rules.py and the speed work on it (verdict-speed):
# bd879557a2e6… for the first 242 generations, unchanged by the departure rules (drift-misses),
# which then added the 17 generations of the "departures" split (d06711da3b4b…); the third attack
# (drift-misses again) left those 259 unchanged and added the 52 generations of the "misses" split.
# verdict-gaps (F12) changed it on purpose (d4fc6e239d94… before): every quote of a summary is in the summary's
# own characters, not its normal form. The dumps before and after differ in 1,126 strings — each finding's and
# survival verdict's `where`, and the quotes of the summary inside messages and reasons — and each differs only
# in case, typographic quotes or fullwidth brackets (the same normal form); no code, key, verdict or count moved.
# check-verdicts changed it on purpose (9750455032f7… before): 32 survival verdicts of open issues the
# summary carries in its ``unresolved`` markers (open_issue.index ×20, .ratio ×4, .p95 ×4, .health ×3,
# .safari ×1) moved from missing/unknown to kept; no finding and no other verdict moved (dumps diffed).
# verdict-real-five changed it on purpose (a23579f34a58… before): 4 generations (rv-okf-en-tests-but,
# rv-okf-zh-tests-but, zh-export-faithful, zh-export-p95-still) gain a completion_unshown warning — "functional
# tests passed" / "功能测试已通过" over a range whose only run is run_export (no test run shows it; only the
# agent's message says it); no other finding or survival verdict moved (dumps diffed: 8 lines).
LABELLED_DIGEST = "dedef3a7573f2faaca3369d1a8271b69bd4689472142148828b54855472b2531"


def test_findings_and_survival_on_the_labelled_set_are_the_recorded_ones(tmp_path: Path) -> None:
    rows = asyncio.run(collect(tmp_path))["labelled"]
    assert len(rows) == 933  # 311 generations: findings, timeline and survival of each
    assert sum(len(r.get("findings", [])) for r in rows) > 100  # drifted items do give findings
    assert digest(rows) == LABELLED_DIGEST
