"""Real transcripts with faithful and drifted compaction summaries (tests/verdict_real_four_cases.py),
judged by ``check``, ``drift`` and ``survival`` as a user runs them: as imported, then after the
owner confirmed every pending fact (``confirm --all-pending``).

    python -m bench.verdict_real_four [--json]

A drifted case whose ``check`` line is ✓ (no ✗, no ?) is a false all-clear; a faithful case with
a ✗ is a false alarm. Figures: docs/reviews/verdict-real-four.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.verdict_real_four_cases import Case, build, cases

MARK = {"clear": "✓", "unknown": "?", "failed": "✗"}


def _run(*args: str) -> tuple[int, Any]:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "owner"})
    try:
        return result.exit_code, json.loads(result.output)
    except ValueError:
        return result.exit_code, None


def _codes(check: dict) -> list[str]:
    session = check["sessions"][0]
    return sorted({f.get("code", "?") for f in session.get("survival", [])}
                  | {f.get("code", "?") for f in session.get("drift", [])}
                  | {w.get("code", "?") for w in session.get("warnings", [])})


def judge(case: Case, work: Path) -> dict[str, Any]:
    """The three commands' verdicts on ``case``, before and after confirming its facts."""
    name, data = build(case)
    work.mkdir(parents=True)
    source, store = work / name, work / "s.db"
    source.write_bytes(data)
    code, out = _run("import", "--into", str(store), str(source))
    assert code == 0, (case.name, out)
    session = out["sessions"][0]
    row: dict[str, Any] = {"name": case.name, "label": case.label, "drift": case.drift}
    for stage in ("imported", "confirmed"):
        if stage == "confirmed":
            _run("confirm", str(store), "--session", session, "--all-pending")
        check_code, check = _run("check", str(store), "--session", session)
        drift_code, drift = _run("drift", str(store), "--session", session)
        survival_code, survival = _run("survival", str(store), "--session", session)
        verdict = check["sessions"][0]["verdict"]
        row[stage] = {"check": MARK[verdict], "check_exit": check_code, "codes": _codes(check),
                      "drift": drift.get("verdict") if drift else None, "drift_exit": drift_code,
                      "survival_exit": survival_code, "tally": survival.get("tally") if survival else None}
    return row


def rows() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        return [judge(c, Path(tmp) / c.name) for c in cases()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    table = rows()
    if args.json:
        json.dump(table, sys.stdout, indent=1, ensure_ascii=False)
        return 0
    false_clear = false_alarm = 0
    for r in table:
        marks = [r[s]["check"] for s in ("imported", "confirmed")]
        if r["label"] == "drifted" and "✓" in marks:
            false_clear += 1
        if r["label"] == "faithful" and "✗" in marks:
            false_alarm += 1
        print(f"{r['name']:26} {r['label']:8} imported {marks[0]} confirmed {marks[1]}  "
              f"{' '.join(r['confirmed']['codes'])}")
    print(f"false all-clears {false_clear}, false alarms {false_alarm} (of {len(table)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
