"""False all-clears found by a hostile review of the verdicts (docs/verdicts.md, "Attacks"),
one focused test each, written to fail before its fix.

Each case is a generation a careful reader calls drifted or lossy; before the fix drift,
survival or both said nothing. The faithful generation of the same session must stay clean.
"""

from __future__ import annotations

from pathlib import Path

from inspector.domain.survival import Fact, survival
from tests.verdict_attack_cases import EVENTS, FAITHFUL, case, judge


async def test_the_faithful_generation_gives_no_finding(tmp_path: Path) -> None:
    got = (await judge(tmp_path, case("faithful", FAITHFUL)))["faithful"]
    # the pending artifact is named as not judged by drift, and survival keeps it
    assert set(got["codes"]) == {"facts_not_judged"}
    assert set(got["survival"].values()) == {"kept"}


async def test_a_range_past_the_last_event_is_a_finding_not_a_warning(tmp_path: Path) -> None:
    # The log ends at evt:8; a summary claiming to cover [1, 50] summarises 42 events nobody
    # can see: either the log lost them or the text is made up. Neither is a green.
    got = (await judge(tmp_path, case("past", FAITHFUL, covers=(1, 50))))["past"]
    found = got["codes"].get("source_outside_range", [])
    assert found and found[0].severity == "finding" and "past the last event" in found[0].message


def test_an_editor_backup_name_does_not_keep_the_file() -> None:
    fact = Fact("artifact.a", "artifact", "/repo/cmd/a.go", "pending", ("evt:1",), "extractor")
    for text in ("Edited /repo/cmd/a.go~ only.", "Left a.go~ behind.", "See #a.go# for the autosave.",
                 "Restored a.go.orig."):
        assert survival(1, text, [], (1, 1), [fact]).verdicts[0].verdict == "missing", text
    for text in ("Edited /repo/cmd/a.go.", "Edited `a.go`, then ran the tests.", "Edited (a.go) and b.go"):
        assert survival(1, text, [], (1, 1), [fact]).verdicts[0].verdict == "kept", text


async def test_everything_done_claims_every_open_issue_and_an_exception_keeps_it_open(tmp_path: Path) -> None:
    claims = {"all": " Everything is done.", "task": " The task is complete.", "short": " All done."}
    fine = {"except": " Everything is done except the P95 measurement.", "else": " Everything else is done.",
            "notall": " Not everything is done.", "written": " Everything was written to disk."}
    got = await judge(tmp_path, *(case(k, FAITHFUL + v) for k, v in {**claims, **fine}.items()))
    for k in claims:
        assert [f.key for f in got[k]["codes"].get("open_issue_claimed_done", [])] == ["open_issue.p95"], k
        assert got[k]["survival"]["open_issue.p95"] == "contradicted", k
    for k in fine:
        assert set(got[k]["codes"]) <= {"facts_not_judged"}, (k, got[k]["codes"])


async def test_the_error_a_failure_names_called_fixed_is_a_failure_called_a_success(tmp_path: Path) -> None:
    # `make check` failed with a TimeoutError; neither "make" nor "check" is in the claim
    events = [dict(e) for e in EVENTS]
    events[3] = {**events[3], "args": {"command": "make check"}}
    events[4] = {**events[4], "content": "TimeoutError: batch 1400 took 31s\nmake: *** [check] Error 2"}
    unresolved = FAITHFUL.replace("TestExportBatch failed with a timeout (evt:5) and is unresolved. ", "")
    got = await judge(tmp_path, case("fixed", unresolved + " The TimeoutError is fixed now.", events=events),
                      case("still", unresolved + " The TimeoutError is still there.", events=events))
    found = got["fixed"]["codes"].get("failure_dropped", [])
    assert found and "went well" in found[0].message, got["fixed"]["codes"]
    assert "failure_dropped" not in got["still"]["codes"]


async def test_a_word_of_a_failed_command_inside_another_path_is_no_claim(tmp_path: Path) -> None:
    # go test ./export/... failed; "Edited /repo/export/stream.go." says nothing about it
    text = FAITHFUL.replace("The stream writer lives in /repo/export/stream.go.", "Edited /repo/export/stream.go.")
    got = (await judge(tmp_path, case("edited", text)))["edited"]
    assert "failure_dropped" not in got["codes"]


def test_a_very_long_summary_is_judged_in_seconds_and_its_last_sentence_still_counts() -> None:
    import time

    from inspector.domain.drift import GenerationText, StateFact, find_drift
    from tests.verdict_attack_cases import STATE

    filler = " ".join(f"Step {i}: looked at module m{i} and it compiled." for i in range(20000))  # ~1 MB
    text = FAITHFUL + " " + filler + " Update: production writes are fine now."
    state = [StateFact(s["key"], s["kind"], s["value"], s.get("status", "active"), tuple(s["sources"]),
                       s.get("writer"), s.get("rationale"), tuple(s.get("alternatives", ()))) for s in STATE]
    gen = GenerationText(1, "recursive", text, ("P95 still to be measured",), ("evt:1",), (), (1, 8))
    started = time.process_time()
    found = find_drift(gen, state)
    # 77 s of CPU before (a sentence-by-match scan, quadratic in a text with "it" in every
    # sentence); ~1 s now. The bound leaves room for a loaded machine.
    assert time.process_time() - started < 20
    assert [f.key for f in found if f.code == "protected_negated"] == ["constraint.prod"]


def test_tests_pass_claims_an_open_todo_done_and_pass_as_another_verb_does_not() -> None:
    from inspector.domain.survival import Fact, survival

    fact = Fact("open_issue.tests", "open_issue", "Run tests and lint", "pending", ("evt:1",), "extractor",
                "todo.item", detail={"todo_states": [["evt:1", "in_progress"]]})

    def verdict(text: str) -> str:
        return survival(1, text, [], (1, 1), [fact]).verdicts[0].verdict

    for text in ("Tests and lint pass.", "Tests and lint are clean.", "Tests and lint implemented.",
                 "Tests and lint work now."):
        assert verdict(text) == "contradicted", text  # was "unknown": the done word was not one
    for text in ("We pass the tests and lint flags to make.", "Tests and lint still need to pass.",
                 "Tests and lint are still failing."):
        assert verdict(text) != "contradicted", text
