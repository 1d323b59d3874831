"""One report reads the raw log's drift context once and judges each generation once.

The report shows the header's badges, the drift table, survival and ``check``'s verdict;
each of those services reads the drift context and judges the latest generation. Issue 17's
"a 4 MB transcript's report in under 3 s" slipped to 4.4 s when ``check`` joined the page
and repeated that work; these tests fail when a report reads it twice again, and when the
sharing leaks outside the report (a command after a write must read afresh).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from inspector.services import drift as drift_service
from inspector.services import overview
from inspector.services import survival as survival_service
from inspector.services.checking import check_store
from inspector.services.corrections import correct
from inspector.services.importing import import_file
from inspector.services.read_once import reads_once
from inspector.services.report import report_data
from inspector.services.report_bounds import bound_check
from inspector.store.connection import open_store
from tests.conftest import SAMPLES

SESSION = "s-export"


@pytest.fixture
async def export_store(tmp_path: Path) -> Path:
    store = tmp_path / "export.db"
    await import_file(SAMPLES["01_export_timeout"], store, actor="tester")
    return store


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[Any]:
    """Counts raw-log reads of the drift and survival contexts and drift judgements per generation."""
    calls: Counter[Any] = Counter()

    def count(module: Any, name: str, key: Any = None) -> None:
        original = getattr(module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[key(*args) if key else name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    count(drift_service, "_read_drift_context")
    count(survival_service, "_read_covers_context")
    count(drift_service, "find_drift", key=lambda gen, *_: ("judged", gen.generation))
    return calls


async def test_a_report_reads_the_drift_context_once_and_judges_each_generation_once(
        export_store: Path, counted: Counter[Any]) -> None:
    async with await open_store(export_store) as store:
        data = await report_data(store, SESSION)
    generations = [g["generation"] for g in data["drift"]["generations"]]
    assert len(generations) >= 2, "the sample has several generations to judge"
    assert counted["_read_drift_context"] == 1
    assert counted["_read_covers_context"] == 0, "survival takes the drift context already read"
    assert {g: counted[("judged", g)] for g in generations} == dict.fromkeys(generations, 1)


async def test_the_shared_reads_say_what_each_service_says_alone(export_store: Path) -> None:
    async with await open_store(export_store) as store:
        data = await report_data(store, SESSION)
        (checked,) = await check_store(store, sessions=[SESSION])
        _, badges = await overview.overview(store, SESSION)
    assert data["check"] == bound_check(checked.as_dict())
    assert data["check"]["verdict"] == "failed" and data["badges"]["drift"] > 0
    assert data["badges"] == badges.as_dict()


async def test_outside_a_report_every_call_reads_afresh(export_store: Path, counted: Counter[Any]) -> None:
    async with await open_store(export_store) as store:
        await drift_service.latest_findings(store, SESSION)
        await drift_service.latest_findings(store, SESSION)
        assert counted["_read_drift_context"] == 2
        with reads_once():
            before = await drift_service.latest_findings(store, SESSION)
            await drift_service.latest_findings(store, SESSION)
        assert counted["_read_drift_context"] == 3
        # A write after the block is seen by the next read: nothing kept survives the block.
        missing = next(f for f in before if f.code == "protected_missing")
        await correct(store, SESSION, missing.key, "不得改生产数据，也不得改备份", reason="the rule was wider",
                      actor="lin")
        after = await drift_service.latest_findings(store, SESSION)
    assert counted["_read_drift_context"] == 4
    assert "不得改生产数据，也不得改备份" in " ".join(f.message for f in after)
    assert "不得改生产数据，也不得改备份" not in " ".join(f.message for f in before)
