"""A key is one fact: its proposal left pending behind the owner's correction is not counted again (review-18).

On a real Claude Code transcript (every fact a pending proposal), the owner corrected ``goal.main``
(v2 active); v1 stayed pending, as the model keeps it until it is rejected, and ``confirm`` refuses
it (``stale_pending``). Survival read both versions as two facts — the header, the Survival tab,
``check`` and ``survival --json`` said "3 of 7 facts kept, 4 not judged" over a session of 6 facts
in range — and drift's "6 pending proposals are not judged" counted one no one can confirm. Now it is left out and said so ("· 1 stale proposal not
counted", ``stale_not_counted``), as a fact after the range is.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.stale_pending import without_stale_pending
from tests.test_check_survival import AUTO_MICRO, ENV, _import


def _json(*args: str) -> dict:
    result = CliRunner().invoke(cli, [*args, "--json"], env=ENV)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_the_owners_correction_of_a_pending_fact_leaves_one_fact_per_key_in_every_count(tmp_path: Path) -> None:
    store, sessions = _import(tmp_path, AUTO_MICRO)
    session = sessions[0]
    before = _json("survival", str(store), "--session", session)
    corrected = _json("correct", str(store), "--session", session, "--key", "goal.main", "--value", "a new goal",
                      "--reason", "the goal as the owner says it")
    assert corrected["status"] == "active" and corrected["version"] == 2  # v1 stays pending behind it
    after = _json("survival", str(store), "--session", session)
    keys = [f["key"] for f in after["facts"]]
    assert sorted(keys) == sorted({f["key"] for f in before["facts"]}) and len(keys) == len(set(keys))
    main = [f for f in after["facts"] if f["key"] == "goal.main"]
    assert [(f["status"], f["value"]) for f in main] == [("active", "a new goal")]
    assert sum(after["tally"].values()) == len(after["facts"]) == len(before["facts"])
    assert f"of {len(before['facts'])} facts kept" in after["headline"]
    assert after["headline"].endswith(" · 1 stale proposal not counted")  # left out, and said so
    assert [(f["key"], f["status"]) for f in after["stale_not_counted"]] == [("goal.main", "pending")]
    drift = _json("drift", str(store), "--session", session)
    pending = sum(1 for f in after["facts"] if f["status"] == "pending")  # goal.main v1 not among them
    said = [f["message"] for f in drift["findings"] if f["code"] == "facts_not_judged"]
    assert said and said[0].startswith(f"generation 1: {pending} pending proposals"), said
    checked = _json("check", str(store))
    assert [s["survival_headline"] for s in checked["sessions"]] == [after["headline"]]
    plain = CliRunner().invoke(cli, ["survival", str(store), "--session", session], env=ENV)
    assert "proposed before its active version: reject it; not counted" in plain.stdout


def test_only_a_pending_version_older_than_its_keys_active_one_is_left_out() -> None:
    rows = [("a", 1, "pending"), ("a", 2, "active"), ("a", 3, "pending"), ("b", 1, "pending"),
            ("c", 1, "superseded"), ("c", 2, "pending")]
    assert without_stale_pending(rows, lambda r: r) == [("a", 2, "active"), ("a", 3, "pending"), ("b", 1, "pending"),
                                                        ("c", 1, "superseded"), ("c", 2, "pending")]
