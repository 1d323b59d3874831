"""verify: a fresh store passes; any edit of a ledger row or a record row is found."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.backend_sql import run_sql


@pytest.fixture
def sample_store(backend_sample_store: Path | str) -> Path | str:
    """Every test here runs on both backends."""
    return backend_sample_store


def _tamper(store: Path, *statements: str) -> None:
    """Edit the store as another tool would (with our guard triggers out of the way)."""
    run_sql(store, *statements, guards_off=True)


async def _verify(store: Path) -> dict:
    async with await open_store(store) as opened:
        return (await verify_store(opened)).as_dict()


async def test_fresh_store_verifies(sample_store: Path) -> None:
    report = await _verify(sample_store)
    assert report["ok"] is True and report["first_break"] is None and report["entries"] == 7


def test_the_ledger_refuses_updates_and_deletes(sample_store: Path) -> None:
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        run_sql(sample_store, "UPDATE ledger SET actor = 'mallory' WHERE seq = 2")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        run_sql(sample_store, "DELETE FROM ledger WHERE seq = 2")
    with pytest.raises(sqlite3.IntegrityError, match="immutable"):
        run_sql(sample_store, "UPDATE events SET content = 'x' WHERE seq = 1")


@pytest.mark.parametrize(
    ("statement", "seq"),
    [
        ("UPDATE ledger SET actor = 'mallory' WHERE seq = 3", 3),
        ("UPDATE ledger SET payload = '{\"added\":{}}' WHERE seq = 2", 2),
        ("UPDATE ledger SET at = '2030-01-01T00:00:00Z' WHERE seq = 5", 5),
        ("DELETE FROM ledger WHERE seq = 4", 5),
    ],
)
async def test_edited_ledger_row_is_the_first_break(sample_store: Path, statement: str, seq: int) -> None:
    _tamper(sample_store, statement)
    report = await _verify(sample_store)
    assert report["ok"] is False
    assert report["first_break"]["where"] == "ledger" and report["first_break"]["seq"] == seq


async def test_edited_event_is_found(sample_store: Path) -> None:
    _tamper(sample_store, "UPDATE events SET content = '可以修改生产库' WHERE session = 's-export' AND seq = 3")
    report = await _verify(sample_store)
    assert report["ok"] is False
    assert report["first_break"]["where"] == "events" and report["first_break"]["seq"] == 3


async def test_projection_out_of_step_with_the_ledger_is_found(sample_store: Path) -> None:
    _tamper(sample_store, "UPDATE sessions SET context_version = 9 WHERE id = 's-orders'")
    report = await _verify(sample_store)
    assert report["first_break"]["where"] == "sessions" and "v9" in report["first_break"]["message"]


async def test_a_removed_row_is_found_by_the_counts(sample_store: Path) -> None:
    _tamper(sample_store, "DELETE FROM state_records WHERE session = 's-export' AND key = 'constraint.prod'")
    report = await _verify(sample_store)
    assert report["first_break"]["where"] == "state_records"
