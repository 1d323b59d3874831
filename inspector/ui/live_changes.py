"""A live store on the main screen (a mixin of :class:`MainScreen`): acts committed elsewhere, and
a followed transcript's growth.

Every half second the screen asks whether another connection committed (a counter, cheap); when
one did, it names who did what and reloads the sessions and the open session. A followed
transcript's new lines reach the timeline at once and the channels in a worker of their own, each
channel keeping its cursor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from inspector.services import channels, recent_acts, sessions
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from inspector.ui.widgets.state_channel import StateChannel
from inspector.ui.widgets.summary_channel import SummaryChannel
from inspector.ui.widgets.timeline_view import TimelineView

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.worker import Worker

    from inspector.store.connection import Store
    from inspector.ui.widgets.follow_bar import FollowBar

    _Base = Screen[None]
else:
    _Base = object

LIVE_POLL_S = 0.5  # how often to ask whether another connection committed (cheap: a counter), so acts show within 2 s


class WatchesChanges(_Base):
    """Needs from the screen: ``store``, ``session``, ``initial_session``, ``load_sessions()``,
    ``load_sessions_then()`` and ``_load_rest()``."""

    store: Store
    session: str | None
    initial_session: str | None

    if TYPE_CHECKING:  # the screen's own
        def load_sessions(self) -> Worker[None]: ...
        def load_sessions_then(self, session: str) -> None: ...
        async def _load_rest(self, session: str) -> None: ...

    def watch_for_changes(self) -> None:
        """Start watching (from the screen's mount): the first look counts what is there as seen."""
        self.change_watch = sessions.ChangeWatch(self.store)
        self.acts = recent_acts.ActsWatch(self.store)
        self._checking = False
        self.check_for_changes()
        self.set_interval(LIVE_POLL_S, self._poll_changes)

    def _poll_changes(self) -> None:
        # A look still running (a slow server, a busy machine) is left to finish, never cancelled:
        # cancelled after reading the change counter, it would lose that change for good.
        if not self._checking:
            self.check_for_changes()

    @work(group="live", exit_on_error=False)
    async def check_for_changes(self) -> None:
        """A live store: when another process commits, say who did what and reload the sessions
        and the open session."""
        self._checking = True
        try:
            self.say_file_replaced()
            changed = await self.change_watch.changed()
            if self.acts.seen is None:
                await self.acts.start()
            if changed:
                # This window's own acts are in the ledger too (its writes do not count as changes,
                # so they were not consumed); the notice names the others'.
                mine = getattr(self.app, "reviewer", None)
                news = await self.acts.news()
                if not news:  # no act, only derived data (another process indexing for search)
                    return
                foreign = self._not_followed(news)
                if not foreign:  # only the follower's own imports: shown as they arrive, no reload
                    return
                acts = [a for a in foreign if a.actor != mine]
                if acts:  # only acts under this reviewer's name (this window's deletion, a second window
                    # of the same person): reloaded without a notice that would call them someone else's
                    self.notify(f"{recent_acts.describe(acts)}; reloaded.", title="Changed elsewhere", timeout=5,
                                markup=False)
                self.initial_session = self.session
                self.load_sessions()
        finally:
            self._checking = False

    def say_file_replaced(self) -> None:
        """A store file replaced under the open app (``mv other.db store.db``, a backup restored)
        kept showing the old file's rows without a word until the first write refused
        (review-15 item 3): the look every poll and ctrl+r make says it, once."""
        moved = self.change_watch.file_said()
        if moved is not None:  # what is shown is the file that was moved away: said once, until reopened
            title = "Store file gone" if moved.code == "store_file_gone" else "Store file replaced"
            self.notify(f"{moved.message} ({moved.code})", title=title, severity="error", timeout=60, markup=False)

    def _not_followed(self, news: list[recent_acts.Act]) -> list[recent_acts.Act]:
        """The acts the follower did not write (FollowBar.made), told act by act: a foreign act
        committed in the same look as a follower import is announced, the import is not."""
        bars = self.query("FollowBar")
        if not bars:
            return news
        bar = bars.first()
        return [a for a in news if not bar.made(a)]  # type: ignore[attr-defined]

    async def on_follow_bar_grew(self, event: FollowBar.Grew) -> None:
        if event.session != self.session:
            self.load_sessions_then(event.session)
            return
        await self.query_one(TimelineView).grew()
        # in a worker of its own: the next poll's lines reach the timeline without waiting for it
        self.run_worker(self._read_channels_again(event.session), group="follow-channels", exclusive=True,
                        exit_on_error=False)
        self.run_worker(self._load_rest(event.session), group="badges", exclusive=True, exit_on_error=False)

    async def _read_channels_again(self, session: str) -> None:
        """The three channels after a follow's poll, each keeping its cursor: a compaction that
        arrived showed in the header ("gen 1 keeps 3 of 3 facts") while Task summary still said
        "no summary generations", and Raw evidence lacked every part imported since opening."""
        state = await channels.state_records(self.store, session)
        gens = await channels.generations(self.store, session)
        mats = await channels.evidence(self.store, session)
        if session != self.session:
            return
        with self.app.batch_update():
            self.query_one(StateChannel).load(state, keep=True)
            self.query_one(SummaryChannel).load(gens, keep=True)
            self.query_one(EvidenceChannel).load(mats, keep=True)
