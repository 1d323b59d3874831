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


async def test_the_timeline_keeps_the_ledger_in_seq_order_under_a_clock_set_back(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The timeline ordered ledger entries by their stamp: the reject made after the accept was
    shown before it (store-fault-seven, found 2). Placed by the running maximum of the stamps,
    the entries keep their seq order in every page, going forward and back, and each row still
    shows its own stamp."""
    from inspector.services import timeline

    await _two_acts_clock_back(sample_store, monkeypatch)
    async with await open_store(sample_store) as store:
        [(session,)] = await store.db.execute_fetchall("SELECT session FROM ledger WHERE kind = 'candidate.accept'")
        rows = await timeline.page(store, session, None, limit=500)
        acts = [(r.seq, r.kind, r.at) for r in rows if r.source == "ledger" and r.kind in ("candidate.accept", "candidate.reject")]
        assert [k for _s, k, _a in acts] == ["candidate.accept", "candidate.reject"], acts
        assert acts[1][2] == "2099-11-30T12:00:00.000000Z"  # its own stamp, shown as written
        back = await timeline.page(store, session, ("\U0010ffff", timeline.LEDGER, 2**62), forward=False, limit=500)
        assert [r.key for r in back] == [r.key for r in rows]
        for size in (1, 2, 3, 5):  # paged forward a few rows at a time: the same rows, once each
            seen, key = [], None
            while True:
                got = await timeline.page(store, session, key, limit=size)
                if not got:
                    break
                seen += got
                key = got[-1].key
            assert [r.key for r in seen] == [r.key for r in rows], size
        reject_seq = acts[1][0]
        around, at = await timeline.around(store, session, reject_seq, limit=6, source="ledger")
        assert around[at].seq == reject_seq and around[at].kind == "candidate.reject"
