"""Real transcripts with faithful and drifted compaction summaries (tests/verdict_real_four_cases.py,
and verdict-real-five's tests/verdict_real_five_cases.py), judged by ``check``, ``drift`` and
``survival`` as a user runs them: as imported, then after the owner confirmed every pending fact
(``confirm --all-pending``).

    python -m bench.verdict_real_four [--json]

A drifted case whose ``check`` line is ✓ (no ✗, no ?) is a false all-clear; a faithful case with
a ✗ is a false alarm; a drifted case is told apart from its faithful sibling (the same transcript's
faithful summary) when its marks or codes differ from the sibling's. ``stated`` counts the pending
decisions proposed from the user's own statements (``decision.user_stated``, verdict-real-five): each
is a record a reviewer must read. Figures: docs/reviews/verdict-real-four.md, verdict-real-five.md.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from inspector.cli.main import cli
from tests import verdict_real_five_cases as five
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


def _stated(store: Path) -> int:
    """The pending decisions proposed from what the user stated (``decision.user_stated``)."""
    with sqlite3.connect(store) as db:
        return int(db.execute("SELECT count(*) FROM state_records WHERE kind = 'decision' AND extra LIKE ?",
                              ('%"rule":"decision.user_stated%',)).fetchone()[0])


def judge(case: Case, work: Path, built: tuple[str, bytes] | None = None, sibling: str | None = None) -> dict[str, Any]:
    """The three commands' verdicts on ``case``, before and after confirming its facts."""
    name, data = built or build(case)
    work.mkdir(parents=True)
    source, store = work / name, work / "s.db"
    source.write_bytes(data)
    code, out = _run("import", "--into", str(store), str(source))
    assert code == 0, (case.name, out)
    session = out["sessions"][0]
    row: dict[str, Any] = {"name": case.name, "label": case.label, "drift": case.drift,
                           "sibling": sibling or case.name.split("-")[0] + "-faithful", "stated": _stated(store)}
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
        return ([judge(c, Path(tmp) / c.name) for c in cases()]
                + [judge(f.case, Path(tmp) / f.case.name, five.build_five(f), f.sibling) for f in five.cases()])


def _seen(r: dict[str, Any]) -> tuple[Any, ...]:
    return tuple((r[s]["check"], tuple(r[s]["codes"])) for s in ("imported", "confirmed"))


def told_apart(table: list[dict[str, Any]]) -> tuple[int, int]:
    """(drifted cases whose marks or codes differ from their faithful sibling's, drifted cases)."""
    by_name = {r["name"]: r for r in table}
    drifted = [r for r in table if r["label"] == "drifted"]
    return sum(1 for r in drifted if _seen(r) != _seen(by_name[r["sibling"]])), len(drifted)


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
              f"{' '.join(r['confirmed']['codes'])}" + (f"  [stated {r['stated']}]" if r["stated"] else ""))
    apart, drifted = told_apart(table)
    print(f"false all-clears {false_clear}, false alarms {false_alarm} (of {len(table)}); "
          f"drifts told apart from their faithful sibling {apart} of {drifted}; "
          f"pending user-stated decisions {sum(r['stated'] for r in table)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
