"""A small English session and a runner for the verdict-attack tests (tests/test_verdict_attack*.py).

One summary generation per case, judged by the drift and survival services exactly as
``inspector drift`` / ``inspector survival`` judge it (each case is its own session of one
sif/1 file, written by bench.drift_precision.write_set).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from bench.drift_precision import write_set
from inspector.cli.main import cli
from inspector.services.drift import drift
from inspector.services.importing import import_file
from inspector.services.survival import survival_report
from inspector.store.connection import open_store


def inspector(*args: str) -> tuple[int, str]:
    """``inspector ARGS`` run in this process (click's runner): its exit code and stdout.

    The verdict tests check what ``check`` and ``drift`` print and the code they exit with; a
    ``python -m inspector`` process per command added ~0.4 s of CPU each (start-up and imports)
    and nothing those tests look at. The process boundary has tests of its own (test_cli_store's
    ``python -m``, test_terminal_safe's JSON bytes). A traceback fails here, as it would have
    failed the JSON parse of an empty stdout."""
    result = CliRunner().invoke(cli, list(args), prog_name="inspector")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout


EVENTS: list[dict[str, Any]] = [
    {"seq": 1, "kind": "user_message", "content": "Goal: fix the export timeout. Do not modify the production database. "
     "You may read the staging database. Keep the batch size at 500 rows."},
    {"seq": 2, "kind": "assistant_message", "content": "Option A: streaming export. Option B: paginated export."},
    {"seq": 3, "kind": "user_message", "content": "Use streaming export. Not paginated, it keeps long transactions open."},
    {"seq": 4, "kind": "tool_call", "call_id": "c4", "tool": "Bash", "args": {"command": "go test ./export/..."}},
    {"seq": 5, "kind": "tool_result", "call_id": "c4", "tool": "Bash", "is_error": True,
     "content": "--- FAIL: TestExportBatch (0.31s)\nexport_test.go:42: timeout after 30s\nFAIL\nexit status 1"},
    {"seq": 6, "kind": "tool_call", "call_id": "c6", "tool": "Edit",
     "args": {"file_path": "/repo/export/stream.go", "old_string": "a", "new_string": "b"}},
    {"seq": 7, "kind": "tool_result", "call_id": "c6", "tool": "Edit",
     "content": "The file /repo/export/stream.go has been updated."},
    {"seq": 8, "kind": "assistant_message", "content": "Streaming export written. P95 still to be measured."},
]
STATE: list[dict[str, Any]] = [
    {"key": "goal.main", "kind": "goal", "value": "fix the export timeout", "sources": ["evt:1"]},
    {"key": "constraint.prod", "kind": "constraint", "value": "Do not modify the production database",
     "sources": ["evt:1"]},
    {"key": "permission.staging", "kind": "permission", "value": "You may read the staging database",
     "sources": ["evt:1"]},
    {"key": "constraint.batch", "kind": "constraint", "value": "Keep the batch size at 500 rows", "sources": ["evt:1"]},
    {"key": "decision.export", "kind": "decision", "value": "streaming export", "sources": ["evt:3"],
     "rationale": "it keeps long transactions open", "alternatives": ["paginated export"]},
    {"key": "open_issue.p95", "kind": "open_issue", "value": "P95 still to be measured", "sources": ["evt:8"],
     "writer": "model"},
    {"key": "artifact.stream", "kind": "artifact", "value": "/repo/export/stream.go", "sources": ["evt:6"],
     "writer": "extractor", "status": "pending"},
]
FAITHFUL = ("Goal: fix the export timeout. Constraint: Do not modify the production database. "
            "Permission: You may read the staging database. Keep the batch size at 500 rows. "
            "Decision: streaming export (not paginated export: it keeps long transactions open). "
            "TestExportBatch failed with a timeout (evt:5) and is unresolved. The stream writer lives in "
            "/repo/export/stream.go. P95 still to be measured.")


def blocking(got: dict[str, Any]) -> list[str]:
    """The codes a judged case raised as findings (✗), sorted: what a drifted case must show."""
    return sorted(c for c, fs in got["codes"].items() if any(f.severity == "finding" for f in fs))


def case(cid: str, text: str, *, covers: tuple[int, int] = (1, 8), events: list[dict[str, Any]] | None = None,
         state: list[dict[str, Any]] | None = None, unresolved: tuple[str, ...] = ("P95 still to be measured",),
         sources: tuple[str, ...] = ("evt:1", "evt:3", "evt:5")) -> dict[str, Any]:
    return {"id": cid, "lang": "en", "expected": [],
            "summary": {"text": text, "covers": list(covers), "sources": list(sources), "unresolved": list(unresolved)},
            "state": state if state is not None else STATE, "actions": [], "events": events or EVENTS}


async def judge(tmp_path: Path, *cases: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per case: its findings (code → list of findings) and survival verdicts (key → verdict)."""
    store = tmp_path / "attack.db"
    await import_file(write_set(list(cases), tmp_path / "attack.jsonl"), store, actor="t")
    out: dict[str, dict[str, Any]] = {}
    async with await open_store(store) as opened:
        for c in cases:
            report = await drift(opened, c["id"], 1)
            surv = await survival_report(opened, c["id"], 1)
            codes: dict[str, list[Any]] = {}
            for f in report.findings:
                codes.setdefault(f.code, []).append(f)
            out[c["id"]] = {"codes": codes, "findings": report.findings,
                            "survival": {v.fact.key: v.verdict for v in surv.verdicts}, "report": report}
    return out


# The labelled attack rounds (test_verdict_attack_five/six/seven.py) judge their cases the same way.
Labelled = list[tuple[str, str, dict[str, Any]]]  # (label "drifted"/"faithful", what it tries, the case)


def labelled_params(cases: Labelled, label: str, known: set[str]) -> list[Any]:
    """The cases of one label; those in ``known`` (not read yet, or still flagged) are strict
    xfails, so reading one makes the test say so."""
    import pytest

    return [pytest.param(w, c, id=c["id"], marks=[pytest.mark.xfail(strict=True, reason="not read yet")]
                         if c["id"] in known else []) for lab, w, c in cases if lab == label]


def assert_caught_or_unjudged(got: dict[str, Any], what: str, case: dict[str, Any]) -> None:
    """A drifted text gives a finding or a "?" that names its record, never "no drift"."""
    from inspector.domain.drift import headline
    from inspector.domain.said_departures import CANNOT_JUDGE

    unsure = [f for c, fs in got["codes"].items() if c in CANNOT_JUDGE for f in fs]
    assert blocking(got) or unsure, (what, case["summary"]["text"][-300:])
    assert headline(got["findings"]) != "no drift found", what
    for f in unsure:  # a "?" names its record, the words and the sentence a person must read
        assert f.key and f.words and f.where and f.severity == "warning"
    if not blocking(got):
        assert all(got["survival"][f.key] in ("unknown", "contradicted") for f in unsure), (what, got["survival"])


def assert_clear(got: dict[str, Any], what: str) -> None:
    """A faithful text stays clear: no finding, no "?", every fact kept."""
    from inspector.domain.drift import headline

    assert set(got["codes"]) - {"facts_not_judged"} == set(), (what, {c: [f.message for f in fs]
                                                                      for c, fs in got["codes"].items()})
    assert headline(got["findings"]) == "no drift found", what
    assert set(got["survival"].values()) <= {"kept"}, (what, got["survival"])


def assert_labelled(cases: Labelled, at_least: int) -> None:
    labels = [label for label, _, _ in cases]
    assert len(cases) >= at_least and set(labels) == {"drifted", "faithful"}
    assert len({c["id"] for _, _, c in cases}) == len(cases)
