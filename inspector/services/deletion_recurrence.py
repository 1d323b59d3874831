"""Events holding a value a carried-out deletion removed: later copies (domain/deletion_recurrence.py).

Each import and each poll of a followed transcript names the new events whose values match a
done request's fingerprints (problem ``deleted_value_returned``, shown with the import's other
problems); ``deletion DEL`` of a done request names every such event of its session. Nothing is
removed: the request was carried out on what the store held then, and a new request (or the
same targets named again) decides about the new copy.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import aiosqlite

from inspector.domain.canonical import keyed_digest
from inspector.domain.deletion import strings_in
from inspector.domain.deletion_recurrence import held, split_between
from inspector.domain.protocol import ProtocolProblem

CODE = "deleted_value_returned"


def digester(key: bytes) -> Callable[[str], str]:
    return lambda text: keyed_digest(key, text.encode("utf-8", errors="surrogatepass"))


async def top_event(db: aiosqlite.Connection) -> int:
    """The last event id now: the events an import adds come after it."""
    rows = await db.execute_fetchall("SELECT COALESCE(MAX(event_id), 0) FROM events")
    return int(rows[0][0])


async def _done(db: aiosqlite.Connection, sessions: list[str],
                request: str | None) -> dict[str, list[tuple[str, set[str]]]]:
    """session -> [(request, fingerprints)] of every carried-out deletion of ``sessions`` that kept
    them. One lookup a session on the ledger's ``(session, kind, seq)`` index: an import and every
    poll of a followed transcript ask, so the ledger is never read whole."""
    out: dict[str, list[tuple[str, set[str]]]] = {}
    for session in sessions:
        # the inspector's own deletions: a harness's ledger line of kind "deletion" (source sif) is history,
        # and its strings are stored as keyed digests, which an imported file could shape into fingerprints
        for payload, source in await db.execute_fetchall(
                "SELECT payload, source FROM ledger WHERE session = ? AND kind = 'deletion' ORDER BY seq", (session,)):
            try:
                body = json.loads(payload) if source == "inspector" else None
            except (TypeError, ValueError):
                continue  # verify names a payload that is not JSON
            prints = body.get("value_digests") if isinstance(body, dict) else None
            if isinstance(prints, list) and prints and (request is None or body.get("request") == request):
                out.setdefault(session, []).append((str(body.get("request")), {str(p) for p in prints}))
    return out


async def later_copies(db: aiosqlite.Connection, key: bytes, *, after_event: int = 0, session: str | None = None,
                       request: str | None = None) -> list[ProtocolProblem]:
    """One problem per event (after ``after_event``) holding a value a done request removed."""
    if session is None:  # the sessions the new events belong to (a range of the events' own key)
        # (not DISTINCT: SQLite answers that from the whole (session, seq) index, not the range)
        sessions = list(dict.fromkeys(str(r[0]) for r in await db.execute_fetchall(
            "SELECT session FROM events WHERE event_id > ? ORDER BY event_id", (after_event,))))
    else:
        sessions = [session]
    done = await _done(db, sessions, request)
    if not done:
        return []
    digest = digester(key)
    found: list[ProtocolProblem] = []
    # the new events alone, by their ids (a range of the table's own key, on either backend); sessions
    # without a carried-out deletion are skipped here rather than in SQL, which would pick the
    # (session, seq) index and read every event of the session on each poll of a followed transcript
    # (a listing names its session: every event of that one is read)
    rows = await db.execute_fetchall("SELECT session, seq, content, extra FROM events WHERE event_id > ?"
                                     + (" AND session = ?" if session else "") + " ORDER BY event_id",
                                     (after_event, session) if session else (after_event,))
    last: dict[str, tuple[int, list[str], set[str]]] = {}  # session -> its previous event: seq, texts, prints
    for sid, seq, content, extra in rows:
        requests = done.get(str(sid))
        if requests:
            texts = _texts(content, extra)
            prints = held(texts, digest)  # once an event, whatever the number of requests
            names = [name for name, kept in requests if prints & kept]
            if names:
                found.append(ProtocolProblem(CODE, str(sid), int(seq), (
                    f"event {seq} holds a value deletion request {', '.join(map(repr, names))} removed before it "
                    "arrived: a later copy, kept (the request covered what the store held then) — name this event "
                    "in a new deletion request to remove it")))
            before = last.get(str(sid)) or await _previous(db, str(sid), int(seq), digest)
            if before is not None and not names:  # a value cut in two across this event and the one before it
                split = split_between(before[1], texts, digest, before[2] | prints)
                cut = [name for name, kept in requests if split & kept]
                if cut:
                    found.append(ProtocolProblem(CODE, str(sid), int(seq), (
                        f"events {before[0]} and {seq} hold a value deletion request {', '.join(map(repr, cut))} "
                        "removed, cut in two across them (together they spell it): a later copy, kept — name both "
                        "events in a new deletion request to remove it")))
            last[str(sid)] = (int(seq), texts, prints)
    return found


async def _previous(db: aiosqlite.Connection, session: str, seq: int,
                    digest: Callable[[str], str]) -> tuple[int, list[str], set[str]] | None:
    """The event before ``seq`` in ``session`` (the last one a poll had imported before): its seq,
    texts and fingerprints — a value may be cut across it and the first new one."""
    rows = await db.execute_fetchall("SELECT seq, content, extra FROM events WHERE session = ? AND seq < ? "
                                     "ORDER BY seq DESC LIMIT 1", (session, seq))
    if not rows:
        return None
    texts = _texts(rows[0][1], rows[0][2])
    return int(rows[0][0]), texts, held(texts, digest)


def _texts(content: str | None, extra: str | None) -> list[str]:
    """What one event holds: its text and every string of its other fields (a tool call's
    arguments, keys included; reasoning)."""
    texts = [str(content or "")]
    if extra:
        try:
            texts += strings_in(json.loads(extra))
        except (TypeError, ValueError):
            texts.append(str(extra))
    return texts
