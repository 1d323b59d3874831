"""A proposal left pending behind the owner's correction is counted apart and said reject-only (stale-and-prefill).

After the owner corrected a pending fact (an active v2), v1 stayed pending: ``confirm`` refuses it
(``stale_pending``), yet the header's "◌ 10 pending records" still counted it as one to decide
and its row read "v1 · pending" like any other — survival already said "· 1 stale proposal not
counted" (review-18). Now the header counts it apart ("◌ 9 pending records", "◌ 1 stale proposal:
reject only") and its row says "stale: reject only".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.services import corrections
from inspector.services.overview import session_badges
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.header_bar import HeaderBar
from inspector.ui.widgets.state_channel import StateChannel
from tests.pending_fixture import OWNER, RECORDS, S, pending_store
from tests.test_app import settle, text_of

PENDING = sum(1 for r in RECORDS if r[5] == "pending")


async def _corrected(tmp_path: Path) -> Path:
    path = Path(await pending_store(tmp_path))
    async with await open_store(path) as opened:
        done = await corrections.correct(opened, S, "decision.db", "use streaming and a cursor",
                                         reason="as the owner decided", actor=OWNER)
        assert (done.status, done.version) == ("active", 2)  # decision.db v1 stays pending behind it
        badges = await session_badges(opened, S)
    assert (badges.pending_state, badges.stale_state) == (PENDING - 1, 1)
    assert badges.as_dict()["stale_state"] == 1
    return path


async def test_the_header_counts_a_stale_proposal_apart_and_its_row_says_reject_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = await _corrected(tmp_path)
    monkeypatch.setenv("INSPECTOR_REVIEWER", OWNER)
    app = InspectorApp(path, session=S)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        header = text_of(app.screen.query_one(HeaderBar))
        assert f"◌ {PENDING - 1} pending records" in header and "◌ 1 stale proposal: reject only" in header, header
        state = app.screen.query_one(StateChannel)
        row = str(state.records.get_option_at_index(state.rows["decision.db@1"]).prompt)
        assert "v1 · pending · stale: reject only" in row, row
        other = str(state.records.get_option_at_index(state.rows["open_issue.p95@1"]).prompt)
        assert "stale" not in other, other


def test_the_html_report_counts_it_apart_as_the_header_does(tmp_path: Path) -> None:
    import asyncio

    from click.testing import CliRunner

    from inspector.cli.main import cli

    path = asyncio.run(_corrected(tmp_path))
    out = tmp_path / "r.html"
    result = CliRunner().invoke(cli, ["report", str(path), "--session", S, "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert f"◌ {PENDING - 1} pending records<" in html and "◌ 1 stale proposal: reject only<" in html
