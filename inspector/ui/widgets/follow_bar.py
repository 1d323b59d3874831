"""A one-line bar under the header while the open session's transcript is followed live.

Every ``POLL_S`` it imports what the agent appended (through its own store connection, one
transaction per batch) and tells the screen which events arrived; a rewritten or truncated
file stops the following with the refusal's sentence here and in a dialog, and nothing is
merged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import work
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import Worker

from inspector.domain.errors import InspectorError
from inspector.services.following import Follower
from inspector.services.recent_acts import Act
from inspector.ui.dialogs import error_dialog
from inspector.ui.paint import after_paint
from inspector.ui.safe import markup, one_line

POLL_S = 0.5


# a followed file that changed under the follower: said before the refusal's own sentence
WAY_ON = {
    "source_truncated": "truncated or replaced: import it into a new store to see it as it is",
    "source_rewritten": "rewritten: import it into a new store to see it as it is",
}

class FollowBar(Static):
    DEFAULT_CSS = """
    FollowBar { height: 1; padding: 0 1; background: $panel; color: $text-muted; text-wrap: nowrap;
                text-overflow: ellipsis; }
    FollowBar.stopped { color: $error; }
    """

    class Grew(Message):
        """New events were imported from the followed transcript."""

        def __init__(self, session: str, events: list[dict[str, Any]]) -> None:
            super().__init__()
            self.session = session
            self.events = events

    def __init__(self, store_path: Path, source: Path, actor: str, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.store_path, self.source, self.actor = store_path, source, actor
        self.follower: Follower | None = None
        self.timer: Timer | None = None
        self.polling: Worker[None] | None = None
        self.received = 0
        self.ended = False  # unmounted: a follower opened from now on is closed at once (start)

    def on_mount(self) -> None:
        self.update(markup("[dim]◌ starting to follow $f…[/]", f=one_line(self.source.name)))
        self.start()

    @work(group="follow-start", exclusive=True, exit_on_error=False)
    async def start(self) -> None:
        await after_paint(self)  # reading and hashing the transcript waits for the first frame
        try:
            follower = await Follower.open(self.store_path, self.source, actor=self.actor)
        except InspectorError as error:
            if not self.ended:
                self._stopped(error, dialog=error.code != "not_appendable")
            return
        if self.ended:  # the bar went (the app ended) while the store opened: its unmount closed nothing
            await follower.close()
            return
        self.follower = follower
        self._show()
        self.timer = self.set_interval(POLL_S, self.tick)

    def tick(self) -> None:
        """A look every POLL_S, unless the last one is still importing: on a loaded machine an
        import can outlast the interval, and starting the next look would cancel it (an
        exclusive worker), again and again — following would stall with lines waiting."""
        if self.polling is None or self.polling.is_finished:
            self.polling = self.poll()

    @work(group="follow-poll", exit_on_error=False)
    async def poll(self) -> None:
        if self.follower is None or self.follower.resume is None:
            return
        try:
            step = await self.follower.poll()
        except InspectorError as error:
            self._stopped(error)
            return
        except Exception as error:  # noqa: BLE001 - said, not swallowed: following stops visibly
            self._stopped(InspectorError(f"{type(error).__name__}: {error}", code="follow_failed"))
            return
        for problem in step.returned:  # a value a carried-out deletion removed, written again
            self.app.notify(problem.message, title="A deleted value came back", severity="warning", timeout=30)
        if step.events:
            self.received += len(step.events)
            self.post_message(self.Grew(self.follower.resume.session, step.events))
        self._show(step.waiting)

    def made(self, act: Act) -> bool:
        """Whether ``act`` is one this bar's follower writes: an import of the followed file into
        its session, or the facts it proposes after one, by its actor. The screen's change watch
        asks act by act, never "did the follower write lately": a flag set before each import
        was taken by a look at the commit before (the next import then read as someone else's),
        and when set it hid a foreign act committed in the same look (another reviewer's
        accept, another app's import) — no "Changed elsewhere" for it."""
        resume = self.follower.resume if self.follower is not None else None
        if resume is None or act.actor != self.actor.strip() or act.session != resume.session:
            return False
        return act.kind == "facts.proposed" or (act.kind == "import" and act.subject == resume.file_name)

    def _show(self, waiting: int = 0) -> None:
        offset = self.follower.resume.offset if self.follower and self.follower.resume else 0
        wait = f" · {waiting:,} bytes of a line still being written" if waiting else ""
        if not self.received:  # nothing arrived yet: the file and what is known of it, not "0 new events"
            # the path last here too: at 120 columns a long one cut "waiting for appended lines" off
            self.update(markup("[$success]● following[/] · $b bytes imported$w · waiting for appended lines · $f",
                               f=one_line(str(self.source)), b=f"{offset:,}", w=wait))
            return
        # the counts before the path: on one line cut with "…", a long path must not hide them
        self.update(markup("[$success]● following[/] $n new event$s since opened$w · $b bytes imported"
                                        " · $f", f=one_line(str(self.source)), b=f"{offset:,}", n=f"{self.received:,}",
                                        s="" if self.received == 1 else "s", w=wait))

    def _stopped(self, error: InspectorError, *, dialog: bool = True) -> None:
        if self.timer is not None:
            self.timer.stop()
        if dialog:
            self.add_class("stopped")
            # what happened and the way on first: at 120 columns the refusal's own sentence was cut before
            # either ("…shorter than the 134,274 bytes already imported: it wa…", new-user-16)
            way = WAY_ON.get(error.code or "")
            self.update(markup("✗ stopped following $f: $w$m", f=one_line(self.source.name),
                               w=f"{way} · " if way else "", m=one_line(error.message)))
        else:  # a format that cannot be followed: a note, not an alarm — what to do first, the long why after
            # (at 80 columns "…, so it cannot be followed; open it again…" was cut before the way on)
            self.update(markup("[dim]○ not followed live — open it again to import its current state: $m[/]",
                               m=one_line(error.message)))
        if dialog:
            self.app.push_screen(error_dialog(error))
        self.run_worker(self._close(), exit_on_error=False)

    async def _close(self) -> None:
        follower, self.follower = self.follower, None
        if follower is not None:
            await follower.close()

    async def on_unmount(self) -> None:
        self.ended = True
        if self.timer is not None:
            self.timer.stop()
        await self._close()
