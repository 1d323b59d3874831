"""The review dialog's footer offers ``b Rebase`` only for a candidate that can be rebased (a stale one).

For a current candidate the key used to stay in the footer, greyed, and pressing it did nothing: a key that
does nothing, next to the two that decide.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from tests.test_app import settle
from tests.test_review_dialog import _review


def _footer_actions(app: InspectorApp) -> set[str]:
    return {b.binding.action for b in app.screen.active_bindings.values()}


@pytest.mark.parametrize(("candidate", "offers_rebase"), [("cand-good", False), ("cand-space", False),
                                                           ("cand-stale", True)])
async def test_rebase_key_only_for_a_stale_candidate(sample_store: Path, monkeypatch: pytest.MonkeyPatch,
                                                     candidate: str, offers_rebase: bool) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await _review(app, pilot, candidate)
        actions = _footer_actions(app)
        assert {"accept", "reject"} <= actions
        assert ("rebase" in actions) is offers_rebase, actions
