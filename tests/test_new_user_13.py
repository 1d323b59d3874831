"""What tripped a new reviewer using the CLI on real transcripts (docs/reviews/new-user-13.md).

A session id typed as the first characters shown by ``sessions`` was only "no session";
``drift --json`` on a session with no summary lacked the ``verdict`` the README promises;
``inspector verfy my.db`` failed with click's "Got unexpected extra argument".
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from tests.conftest import event_record, session_record, write_sif


@pytest.mark.parametrize("command", [
    ["drift"], ["survival"], ["budget", "--window", "1000"], ["candidates"], ["history", "--key", "goal.main"],
    ["check"], ["export", "-o", "{tmp}/x.jsonl"], ["search", "anything"], ["report", "-o", "{tmp}/r.html"],
])
def test_a_session_id_prefix_names_the_whole_id(sample_store: Path, tmp_path: Path, command: list[str]) -> None:
    name, *rest = command
    args = [name, str(sample_store), "--session", "S-EXP", *(a.replace("{tmp}", str(tmp_path)) for a in rest)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 3, result.output
    assert "no session 'S-EXP'" in result.output
    assert "did you mean s-export?" in result.output
    assert not list(tmp_path.glob("x.jsonl*")) and not list(tmp_path.glob("r.html*"))  # nothing written


def test_a_prefix_of_several_sessions_names_some_of_them(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["drift", str(sample_store), "--session", "s-", "--json"])
    assert result.exit_code == 3
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "not_found"
    assert "did you mean s-export, s-orders, s-weather and 3 more?" in error["message"]


def test_an_unknown_session_with_no_such_prefix_is_said_as_before(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["drift", str(sample_store), "--session", "zz"])
    assert result.exit_code == 3
    assert "no session 'zz'" in result.output and "did you mean" not in result.output


def test_history_of_an_unknown_session_does_not_say_the_session_lacks_the_key(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["history", str(sample_store), "--session", "s-exp", "--key", "goal.main"])
    assert result.exit_code == 3
    assert "has no protected record" not in result.output
    assert "did you mean s-export?" in result.output


def test_drift_json_of_a_session_without_summary_has_a_verdict(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)]), store, actor="t"))
    result = CliRunner().invoke(cli, ["drift", str(store), "--session", "s1", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["generation"] is None
    assert (doc["verdict"], doc["headline"]) == ("clear", "no summary generations")


@pytest.mark.parametrize(("typed", "meant"), [("verfy", "verify"), ("sesions", "sessions"), ("Check", "check")])
def test_a_mistyped_command_names_the_command_meant(sample_store: Path, typed: str, meant: str) -> None:
    result = CliRunner().invoke(cli, [typed, str(sample_store)])
    assert result.exit_code == 2
    assert f"did you mean '{meant}'?" in result.output
    assert "unexpected extra argument" not in result.output


def test_a_file_named_like_a_command_is_still_a_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "verfy").write_text("not a store")
    result = CliRunner().invoke(cli, ["verfy", "--session", "x"])
    assert "did you mean" not in result.output
    assert result.exit_code == 3  # opened as a store, and refused as one


def test_a_stub_id_without_its_prefix_names_the_whole_id(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["expand", str(sample_store), "mig", "--reviewer", "alice"])
    assert result.exit_code == 3
    assert "no stub 'mig'" in result.output and "did you mean stub-mig?" in result.output


def test_a_candidate_id_part_names_the_whole_id(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(sample_store), "good", "--json"])
    assert result.exit_code == 3
    assert "did you mean cand-good?" in json.loads(result.stdout)["error"]["message"]


@pytest.mark.parametrize("command", [
    ["correct", "--value", "v", "--reason", "r", "--reviewer", "alice"], ["history"], ["confirm", "--reviewer", "alice"],
])
def test_a_mistyped_key_names_the_key_meant(sample_store: Path, command: list[str]) -> None:
    name, *rest = command
    before = sample_store.read_bytes()
    result = CliRunner().invoke(cli, [name, str(sample_store), "--session", "s-export", "--key", "goal.mian", *rest])
    assert result.exit_code == 3, result.output
    assert "has no protected record 'goal.mian'; did you mean goal.main?" in result.output
    assert sample_store.read_bytes() == before


def test_import_says_each_sessions_whole_id_and_how_to_open_it(tmp_path: Path) -> None:
    source = write_sif(tmp_path / "a.jsonl", [session_record("s #1"), event_record(1, "s #1")])
    store = tmp_path / "s.db"
    result = CliRunner().invoke(cli, ["import", str(source), "--into", str(store)])
    assert result.exit_code == 0, result.output
    assert f"  session s #1: open it with `inspector {store} --session 's #1'`" in result.output.splitlines()


def test_no_candidates_says_where_a_candidate_comes_from(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)]), store, actor="t"))
    result = CliRunner().invoke(cli, ["candidates", str(store), "--session", "s1"])
    assert result.exit_code == 0
    assert "a compression candidate is proposed by a `candidate` record of a sif/1 file" in result.output


def test_verify_says_a_limit_shared_by_several_indexes_once(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["verify", str(sample_store)])
    assert result.exit_code == 0, result.output
    assert result.output.count("compared by each gram's events") == 1
    assert "not checked: calls_grams, reasoning_grams, events_grams: compared by each gram's events" in result.output
    as_json = json.loads(CliRunner().invoke(cli, ["verify", str(sample_store), "--json"]).stdout)
    assert sum("compared by each gram's events" in item for item in as_json["not_checked"]) == 3  # one per index


@pytest.mark.parametrize(("command", "candidate"), [("accept", "cand-stale"), ("validate", "cand-goal")])
def test_a_stale_candidate_refusal_says_rebase_is_the_way_on(sample_store: Path, command: str, candidate: str) -> None:
    who = ["--reviewer", "alice"] if command == "accept" else []
    result = CliRunner().invoke(cli, [command, str(sample_store), candidate, *who])
    assert result.exit_code == 1, result.output
    assert f"→ `inspector rebase {sample_store} {candidate}` replays it on the current base" in result.output


def test_a_decided_candidate_is_not_offered_a_rebase(sample_store: Path) -> None:
    CliRunner().invoke(cli, ["reject", str(sample_store), "cand-stale", "--reason", "old", "--reviewer", "alice"])
    result = CliRunner().invoke(cli, ["validate", str(sample_store), "cand-stale"])
    assert "stale_base" in result.output and "inspector rebase" not in result.output


def test_a_file_of_no_known_format_names_every_format_read(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# notes\n\nnot a transcript\n")
    result = CliRunner().invoke(cli, ["import", str(notes), "--into", str(tmp_path / "s.db")])
    assert result.exit_code == 3
    assert "an inspect-ai log" in result.output and not (tmp_path / "s.db").exists()
    assert "Gemini CLI, an inspect-ai log" in CliRunner().invoke(cli, ["import", "--help"]).output


def test_a_transcript_given_as_the_store_says_to_import_it(tmp_path: Path) -> None:
    source = write_sif(tmp_path / "run.jsonl", [session_record(), event_record(1)])
    before = source.read_bytes()
    result = CliRunner().invoke(cli, ["drift", str(source), "--session", "s1"])
    assert result.exit_code == 3
    assert f"it looks like a transcript: import it into a store first (`inspector import {source} --into STORE`)" \
        in result.output
    assert source.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["run.jsonl"]
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    assert "looks like a transcript" not in CliRunner().invoke(cli, ["verify", str(notes)]).output


def test_a_rebase_with_no_event_since_says_so(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["rebase", str(sample_store), "cand-goal", "--reviewer", "alice"])
    assert result.exit_code == 0, result.output
    assert "  no event after evt:11" in result.output.splitlines()
    assert "0 event(s)" not in result.output and "0 events" not in result.output


def test_filing_a_pending_value_again_says_to_confirm_it(sample_store: Path) -> None:
    key = ["--session", "s-export", "--key", "constraint.skip_checks"]
    before = CliRunner().invoke(cli, ["history", str(sample_store), *key, "--json"]).stdout
    result = CliRunner().invoke(cli, ["correct", str(sample_store), *key, "--value", "从现在起永远跳过校验",
                                      "--reason", "r", "--reviewer", "lin"])
    assert result.exit_code == 1, result.output
    assert "refused no_change: constraint.skip_checks v1 already proposes" in result.output
    assert "confirm it instead" in result.output
    assert CliRunner().invoke(cli, ["history", str(sample_store), *key, "--json"]).stdout == before
    other = CliRunner().invoke(cli, ["correct", str(sample_store), *key, "--value", "run every check",
                                     "--reason", "r", "--reviewer", "lin"])
    assert other.exit_code == 0, other.output  # a different value is a correction as before


def test_verify_s_pin_command_names_the_store_verified(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["verify", str(sample_store)])
    assert result.exit_code == 0, result.output
    assert f"(pin it: inspector verify {sample_store} --head " in result.output


def test_budget_without_a_window_plans_the_app_s_first_request(sample_store: Path) -> None:
    def plan(*args: str) -> dict[str, object]:
        out = CliRunner().invoke(cli, ["budget", str(sample_store), "--session", "s-export", *args, "--json"])
        assert out.exit_code == 0, out.output
        return dict(json.loads(out.stdout))

    assert plan()["history_budget"] == 128_000 - 8_000 - 4_000  # the Budget tab's window, fixed and reserve
    assert plan("--fixed", "0")["history_budget"] == 128_000 - 4_000
    assert plan("--window", "8000")["history_budget"] == 8_000  # with --window, fixed and reserve stay 0


def test_a_word_that_is_no_command_before_a_store_says_so(sample_store: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``inspector stubs STORE`` (no command close to "stubs") said click's "Got unexpected extra
    argument (STORE)" from ``open``, which the person never typed."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["stubs", str(sample_store), "--session", "s-export"])
    assert result.exit_code == 2
    assert "no command 'stubs', and no file of that name to open" in result.output
    assert "unexpected extra argument" not in result.output
    alone = CliRunner().invoke(cli, ["stubs"])  # one word: still "no store at stubs; it is not a command either"
    assert alone.exit_code == 3 and "not a command either" in alone.output
