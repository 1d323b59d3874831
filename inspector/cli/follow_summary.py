"""``follow``'s last line: what this run printed and why it stopped, as one JSON object.

A script reading ``inspector follow``'s JSON lines learnt the end only from the process ending
(flow-nine): how many events came, the last ``seq`` to resume from, whether a compaction arrived,
and whether the run stopped because ``--once`` or ``--timeout`` said so, because it was
interrupted, or because the file was rewritten were each left to guess. With ``--summary`` a run ends with

    {"type": "follow_summary", "file": …, "store": …, "session": …, "events": N, "first_seq": …,
     "last_seq": …, "summary_generations": [G, …], "stopped": "once|timeout|interrupted|terminated|refused",
     "code": null|"source_truncated"|…}

after the events (and after the ``{"error": …}`` line of a refused run). ``type`` tells it from the
events, whose sif/1 records say ``"type": "event"``. Opt-in: scripts written before it read every
line as an event (and a refused run's stdout as one ``{"error": …}`` object).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.domain.terminal_safe import line_safe


@dataclass(slots=True)
class FollowTally:
    """Counted while the run prints; :meth:`line` is the summary object."""

    file: Path
    store: Path | None = None
    session: str | None = None
    events: int = 0
    first_seq: int | None = None
    last_seq: int | None = None
    generations: list[int] = field(default_factory=list)  # summary generations that arrived during this run

    def saw(self, event: dict[str, Any]) -> None:
        seq = event.get("seq")
        if isinstance(seq, int):
            self.events += 1
            self.first_seq = seq if self.first_seq is None else self.first_seq
            self.last_seq = seq
        if isinstance(event.get("session"), str):
            self.session = event["session"]

    def line(self, stopped: str, code: str | None = None) -> dict[str, Any]:
        return {"type": "follow_summary", "file": str(self.file), "store": None if self.store is None else str(self.store),
                "session": self.session, "events": self.events, "first_seq": self.first_seq, "last_seq": self.last_seq,
                "summary_generations": list(self.generations), "stopped": stopped, "code": code}


def compaction_arrived(generation: int, session: str, store: Path | str) -> str:
    """The line saying a compaction arrived and how to judge it: ``follow`` says it on stderr, an
    import of what was appended says it among its lines — one sentence, in both."""
    return (f"⚑ a compaction arrived: summary generation {generation} of {line_safe(session)}; judge it with "
            f"`inspector drift {shlex.quote(str(store))} --session {shlex.quote(session)}` (and `survival`)")
