"""A machine's clock set back between two acts (store-fault-seven): the later act's ledger entry
is stamped before the earlier one. The chain is whole (its order is the seq) and verify said
nothing, while the timeline — which merges the ledger with the events by time — showed the
later act before the earlier one (a correction before the accept it followed). Now verify says
so (``clock_went_back``, a line starting ``!``): not a break, exit 0.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.candidates import accept, reject
from inspector.store import ledger
from inspector.store.connection import open_store


async def _two_acts_clock_back(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with await open_store(store_path) as store:
        monkeypatch.setattr(ledger, "utc_now", lambda: "2099-12-01T12:00:00.000000Z")
        await accept(store, "cand-good", actor="lin")
        monkeypatch.setattr(ledger, "utc_now", lambda: "2099-11-30T12:00:00.000000Z")  # the clock set back a day
        await reject(store, "cand-stale", actor="lin", reason="stale")


def test_an_act_stamped_before_the_act_before_it_is_said(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asyncio.run(_two_acts_clock_back(sample_store, monkeypatch))
    monkeypatch.undo()
    result = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True
    [back] = report["clock_went_back"]
    assert back["at"] == "2099-11-30T12:00:00.000000Z" and back["after"] == "2099-12-01T12:00:00.000000Z"
    assert back["seq"] == back["after_seq"] + 1
    text = CliRunner().invoke(cli, ["verify", str(sample_store)])
    assert text.exit_code == 0 and "! ledger times go back: entry" in text.stdout


def test_acts_in_time_order_say_nothing(sample_store: Path) -> None:
    """Guard (passes before and after): no note on an ordinary store."""
    result = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout).get("clock_went_back", []) == []
