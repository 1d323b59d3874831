"""False all-clears found by a hostile review of the verdicts (docs/verdicts.md, "Attacks"),
one focused test each, written to fail before its fix.

Each case is a generation a careful reader calls drifted or lossy; before the fix drift,
survival or both said nothing. The faithful generation of the same session must stay clean.
"""

from __future__ import annotations

from pathlib import Path

from inspector.domain.survival import Fact, survival
from tests.verdict_attack_cases import FAITHFUL, case, judge


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
