"""The live app tells the follower's own imports from other people's acts by the acts themselves.

A flag set before each import's commit was not enough: a change-watch look that had read the
change counter could take the flag meant for the next import, and that import's commit then read
as someone else's — "Changed elsewhere; reloaded", the timeline's cursor back at the top, and
appended lines no longer followed the end (the follow test failed so under load).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from inspector.services.recent_acts import Act
from inspector.ui.widgets.follow_bar import FollowBar


def bar_following(session: str, file_name: str, actor: str) -> FollowBar:
    bar = FollowBar(Path("/nowhere/store.db"), Path(f"/nowhere/{file_name}"), actor)
    bar.follower = SimpleNamespace(resume=SimpleNamespace(session=session, file_name=file_name))  # type: ignore[assignment]
    return bar


def test_the_followers_imports_and_proposals_are_its_own_and_nothing_else_is() -> None:
    bar = bar_following("s-live", "live.jsonl", "ana")
    assert bar.made(Act(7, "ana", "import", "s-live", "live.jsonl"))
    assert bar.made(Act(8, "ana", "facts.proposed", "s-live", None))
    assert not bar.made(Act(9, "ana", "import", "s-live", "other.jsonl")), "another file imported"
    assert not bar.made(Act(9, "bob", "import", "s-live", "live.jsonl")), "another reviewer's import"
    assert not bar.made(Act(9, "ana", "import", "s-other", "live.jsonl")), "another session"
    assert not bar.made(Act(9, "ana", "candidate.accept", "s-live", "cand-1")), "a decision is never the follower's"


def test_a_bar_that_stopped_following_claims_nothing() -> None:
    bar = bar_following("s-live", "live.jsonl", "ana")
    bar.follower = None
    assert not bar.made(Act(7, "ana", "import", "s-live", "live.jsonl"))
