"""The said-rules' records asked per generation (inspector/domain/drift_roster.py): only those the
text can make a rule read, with exactly the findings of reading every record.

The Drift tab of bench/drift_speed.py's plain set asked the departure rules about 68 records in
each of its 1,000 generations (68,000 calls of ``departure`` and of ``subject_statement``), and
every one found nothing: the records' subject words are the ones every record shares."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import inspector.domain.drift as drift_module
from inspector.domain.drift import GenerationText, StateFact, find_drift
from inspector.domain.drift_roster import Gate
from tests.verdict_attack_cases import judge
from tests.verdict_attack_departure_cases import departure_cases
from tests.verdict_attack_misses_cases import misses_cases
from tests.verdict_attack_paraphrase_cases import paraphrase_cases

KINDS = ["goal", "constraint", "permission", "acceptance", "open_issue", "decision"]


def _plain(g: int) -> tuple[GenerationText, list[StateFact]]:
    """One generation of the drift bench's plain set (bench/drift_speed.py)."""
    values = [f"约束 {k}: 值 {k} must hold" for k in range(100)]
    state = [StateFact(f"k{k}", KINDS[k % 6], values[k], "active", ("evt:1",)) for k in range(100)]
    kept = [v for k, v in enumerate(values) if (k + g) % 7]
    return GenerationText(g, "recursive", " ".join(kept), tuple(kept[:5]), ("evt:1",)), state


def test_a_text_that_can_move_no_record_asks_the_departure_rules_about_none(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = drift_module.departure

    def counting(said, value, *args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(value)
        return real(said, value, *args, **kwargs)

    monkeypatch.setattr(drift_module, "departure", counting)
    gen, state = _plain(3)
    findings = find_drift(gen, state)
    assert asked == []  # reading every record asked 68 of them
    assert {f.code for f in findings} == {"protected_missing", "open_issue_closed"}


def _every_record(roster, said, plans):  # type: ignore[no-untyped-def]
    return Gate(visit=None)  # the loop reads every record and asks each question itself, as before


@pytest.mark.parametrize("cases", [departure_cases, misses_cases, paraphrase_cases])
def test_the_records_asked_find_what_reading_every_record_finds(cases, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    items = [c for _, _, c in cases()]
    (tmp_path / "narrowed").mkdir()
    (tmp_path / "every").mkdir()
    narrowed = asyncio.run(judge(tmp_path / "narrowed", *items))
    monkeypatch.setattr(drift_module, "gate_of", _every_record)
    every = asyncio.run(judge(tmp_path / "every", *items))
    assert any(r["findings"] for r in every.values())
    for cid, got in every.items():
        assert [f.as_dict() for f in narrowed[cid]["findings"]] == [f.as_dict() for f in got["findings"]], cid
        assert narrowed[cid]["survival"] == got["survival"], cid


def test_every_plain_generation_finds_the_same_as_reading_every_record(monkeypatch: pytest.MonkeyPatch) -> None:
    gens = [_plain(g) for g in range(1, 8)]
    narrowed = [[f.as_dict() for f in find_drift(g, s)] for g, s in gens]
    monkeypatch.setattr(drift_module, "gate_of", _every_record)
    assert [[f.as_dict() for f in find_drift(g, s)] for g, s in gens] == narrowed


def test_generations_whose_range_holds_every_record_share_one_roster(monkeypatch: pytest.MonkeyPatch) -> None:
    """A range (``covers``) that leaves every record in made a new list per generation, so what
    is kept per record list (the roster, the plans, the subject rule's shared words) was worked
    out again for each of the rich set's 1,000 generations."""
    import inspector.domain.drift_roster as roster_module

    made: list[int] = []
    real = roster_module.roster_of

    def counting(state, others):  # type: ignore[no-untyped-def]
        made.append(len(state))
        return real(state, others)

    monkeypatch.setattr(roster_module, "roster_of", counting)
    _, state = _plain(1)
    state = [StateFact(s.key, s.kind, s.value, s.status, ("evt:1",)) for s in state]
    for g in range(1, 4):
        gen, _ = _plain(g)
        find_drift(GenerationText(g, "recursive", gen.text, gen.unresolved, gen.sources, covers=(1, 5)), state)
    assert made == [100]
