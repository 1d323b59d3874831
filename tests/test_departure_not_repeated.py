"""A departure beside a missing value: drift said both "the constraint … is not in generation 1's
text" and "generation 1 repeats the constraint … but elsewhere says its opposite" of one key
(newuser-19 #3) — two sentences a reviewer cannot both believe. The verdict (✗) stays."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.drift_finding import Finding, not_repeated


def _transcript(path: Path) -> None:
    def rec(i: int, kind: str, content: object, **extra: object) -> dict[str, object]:
        return {"type": kind, "uuid": f"u{i}", "parentUuid": f"u{i - 1}" if i > 1 else None, "sessionId": "nu-1",
                "timestamp": f"2026-01-01T00:00:{i:02d}Z",
                "message": {"role": "user" if kind == "user" else "assistant", "content": content}, **extra}

    lines = [rec(1, "user", "Deploy the app to staging. Never force push to main. Do not print the database password."),
             rec(2, "assistant", [{"type": "text", "text": "OK."}]),
             {"type": "system", "subtype": "compact_boundary", "uuid": "u3", "parentUuid": "u2", "sessionId": "nu-1",
              "timestamp": "2026-01-01T00:00:03Z", "content": "Conversation compacted",
              "compactMetadata": {"trigger": "manual", "preTokens": 1000}},
             rec(4, "user", "This session is being continued from a previous conversation. The user asked to deploy "
                 "to staging, and we may force push to main now since the user allowed it.", isCompactSummary=True)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_a_flipped_rule_not_in_the_text_is_not_said_to_be_repeated(tmp_path: Path) -> None:
    src, store = tmp_path / "nu.jsonl", tmp_path / "nu.db"
    _transcript(src)
    run = CliRunner(env={"INSPECTOR_REVIEWER": "lin"})  # the importer owns the session: it confirms
    assert run.invoke(cli, ["import", str(src), "--into", str(store)]).exit_code == 0
    confirmed = run.invoke(cli, ["confirm", str(store), "--session", "nu-1", "--all-pending"])
    assert confirmed.exit_code == 0, confirmed.output
    out = run.invoke(cli, ["drift", str(store), "--session", "nu-1", "--json"])
    assert out.exit_code == 1, out.output
    findings = json.loads(out.stdout)["findings"]
    push = [f for f in findings if f["key"] and "never-force-push" in f["key"]]
    assert {f["code"] for f in push} >= {"protected_missing", "protected_negated"}  # ✗ twice, as before
    negated = next(f for f in push if f["code"] == "protected_negated")
    assert "does not repeat the constraint “Never force push to main”" in negated["message"]
    assert "repeats the" not in negated["message"].replace("does not repeat the", "")


def test_a_departure_of_a_value_kept_word_for_word_still_says_it_repeats_it() -> None:
    kept = Finding("protected_negated", "c.x", "generation 2 repeats the constraint “X” (c.x) but cancels or weakens it")
    other = Finding("protected_missing", "c.y", "the constraint “Y” (c.y) is not in generation 2's text.")
    assert not_repeated([kept, other]) == [kept, other]


def test_survival_names_a_key_that_holds_its_kind_once(tmp_path: Path) -> None:
    """"generation 1 lost the confirmed constraint constraint.do-not-print-…" said the kind twice (review-19 #6)."""
    src, store = tmp_path / "nu.jsonl", tmp_path / "nu.db"
    _transcript(src)
    run = CliRunner(env={"INSPECTOR_REVIEWER": "lin"})
    assert run.invoke(cli, ["import", str(src), "--into", str(store)]).exit_code == 0
    assert run.invoke(cli, ["confirm", str(store), "--session", "nu-1", "--all-pending"]).exit_code == 0
    (session,) = json.loads(run.invoke(cli, ["check", str(store), "--json"]).stdout)["sessions"]
    lost = [f["message"] for f in session["survival"] if f["code"] == "fact_missing"]
    assert lost and all(" constraint constraint." not in m and " goal goal." not in m for m in lost), lost
    assert any("lost the confirmed constraint.do-not-print-the-database-passwo" in m for m in lost), lost
