"""Who did what since this window last looked: the sentence a live app shows when another
reviewer (another app, the CLI, a harness) commits to the store it has open.

Several reviewers share one store (on PostgreSQL above all); "the store changed" alone
leaves a person guessing whether their candidate was just decided by someone else. The
ledger already names every act and its actor, so the app reads the entries appended since
its last look and says them: "ana accepted candidate cand-good (s-export)".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from inspector.store.connection import Store

SHOWN = 3  # acts named one by one; more are counted

_PHRASES: dict[str, tuple[str, str | None]] = {
    "candidate.accept": ("accepted candidate", "candidate"),
    "candidate.reject": ("rejected candidate", "candidate"),
    "candidate.rebase": ("rebased candidate", "candidate"),
    "handoff.accept": ("accepted handoff", "handoff"),
    "confirmation": ("decided", "key"),
    "correction": ("filed a correction of", "key"),
    "summary.correction": ("corrected summary generation", "generation"),
    "summary.rebuild": ("rebuilt summary generation", "generation"),
    "deletion": ("carried out deletion request", "request"),
    "deletion.request": ("filed deletion request", "request"),
    "action.reconcile": ("reconciled action", "action"),
    "expand": ("expanded stub", "stub"),
    "import": ("imported", "file_name"),
    "facts.proposed": ("proposed facts", None),
    "session.created": ("created the session", None),
}


@dataclass(frozen=True, slots=True)
class Act:
    seq: int
    actor: str
    kind: str
    session: str | None
    subject: str | None  # the candidate, handoff, key … the act was about, when the entry names one

    def sentence(self) -> str:
        verb, _field = _PHRASES.get(self.kind, (self.kind, None))
        what = f" {self.subject}" if self.subject else ""
        where = f" ({self.session})" if self.session else ""
        return f"{self.actor} {verb}{what}{where}"


def _act(seq: int, session: str | None, kind: str, actor: str, payload_text: str) -> Act:
    try:
        payload: dict[str, Any] = json.loads(payload_text)
    except ValueError:
        payload = {}
    field = _PHRASES.get(kind, ("", None))[1]
    value = payload.get(field) if field and isinstance(payload, dict) else None
    return Act(int(seq), str(actor), str(kind), session, None if value is None else str(value))


async def ledger_head(store: Store) -> int:
    rows = await store.db.execute_fetchall("SELECT COALESCE(MAX(seq), 0) FROM ledger")
    return int(rows[0][0])


async def acts_after(store: Store, seq: int, *, limit: int = 50) -> list[Act]:
    """The acts recorded after ledger entry ``seq``, oldest first (at most ``limit``)."""
    rows = await store.db.execute_fetchall(
        "SELECT seq, session, kind, actor, payload FROM ledger WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit))
    return [_act(*row) for row in rows]


def describe(acts: list[Act]) -> str:
    """One line naming who did what: the first few acts, then how many more."""
    if not acts:
        return "The store changed outside this window"
    named = "; ".join(a.sentence() for a in acts[:SHOWN])
    more = len(acts) - SHOWN
    return named + (f"; and {more} more act{'s' if more > 1 else ''}" if more > 0 else "")


class ActsWatch:
    """Remembers the last ledger entry a window has seen and reports the acts after it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.seen: int | None = None

    async def start(self) -> None:
        self.seen = await ledger_head(self.store)

    async def news(self) -> list[Act]:
        if self.seen is None:
            await self.start()
            return []
        acts = await acts_after(self.store, self.seen)
        if acts:
            self.seen = acts[-1].seq if len(acts) < 50 else await ledger_head(self.store)
        return acts
