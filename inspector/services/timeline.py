"""The raw timeline: events and ledger entries merged by time, read in keyset pages.

A row's key is (time, source, seq) with events before ledger entries at the same time.
Pages are fetched by key, never by OFFSET, so reading near the end of a million-event
session costs what reading near the start does. A deleted event stays visible as a
"deleted" placeholder at its place, from the tombstone its deletion's ledger entry keeps
(seq, time and kind only: rule 6, missing is visible).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from inspector.domain.errors import NotFound
from inspector.services.tombstones import deleted_calls, tombstones
from inspector.store.connection import Store, fetch_one

Key = tuple[str, int, int]
EVENT, LEDGER = 0, 1
TEXT_CHARS = 160


@dataclass(frozen=True, slots=True)
class TimelineRow:
    key: Key
    source: str  # "event" | "ledger"
    seq: int
    at: str
    kind: str
    text: str
    call_id: str | None = None
    tool: str | None = None
    trust: str | None = None
    pair_seq: int | None = None  # the call's result, or the result's call
    marks: tuple[str, ...] = ()  # "reasoning", "continuation:signature", "orphan", "unresolved", …
    actor: str | None = None


_EVENT_COLS = "IFNULL(at, ''), seq, kind, content, call_id, tool, trust, extra"
_LEDGER_COLS = "at, seq, kind, actor, payload"


def _one_line(text: str | None) -> str:
    if not text:
        return ""
    line = text.strip().replace("\n", " ⏎ ")
    return line[:TEXT_CHARS] + ("…" if len(line) > TEXT_CHARS else "")


def _event_row(r: tuple[Any, ...]) -> TimelineRow:
    at, seq, kind, content, call_id, tool, trust, extra_text = r
    extra = json.loads(extra_text) if extra_text and extra_text != "{}" else {}
    marks: list[str] = []
    if extra.get("reasoning_content"):
        marks.append("reasoning")
    for item in extra.get("continuation", []) or []:
        marks.append(f"continuation:{item.get('kind')}")
    text = content
    if kind == "tool_call":
        text = f"{tool or '?'}({json.dumps(extra.get('args', {}), ensure_ascii=False)[1:-1]})"
    return TimelineRow((at, EVENT, seq), "event", seq, at, kind, _one_line(text), call_id, tool, trust,
                       marks=tuple(marks))


_KEYED = re.compile(r"hmac-sha256:[0-9a-f]{64}")


def _short_digests(value: Any) -> Any:
    """Keyed digests stand for content nobody may read back: one line shows that they are
    there, not 64 hex characters (the ledger command and --json give them whole)."""
    if isinstance(value, str):
        return "hmac-sha256:…" if _KEYED.fullmatch(value) else value
    if isinstance(value, dict):
        return {k: _short_digests(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_short_digests(v) for v in value]
    return value


def _ledger_row(r: tuple[Any, ...]) -> TimelineRow:
    at, seq, kind, actor, payload = r
    body = _short_digests(json.loads(payload))
    detail = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in body.items()
                       if k not in {"file_digest", "_sif_extra"})
    return TimelineRow((at, LEDGER, seq), "ledger", seq, at, kind, _one_line(detail), actor=actor)


def _keyset(key: Key | None, own: int, time_expr: str, forward: bool) -> tuple[str, list[Any]]:
    """The WHERE clause that continues after (or before) ``key`` in one stream.

    Rows of the same stream compare on (time, seq); rows of the other stream only on
    time, with events placed before ledger entries of the same instant.
    """
    if key is None:
        return "", []
    at, src, seq = key
    if src == own:
        return f"AND ({time_expr}, seq) {'>' if forward else '<'} (?, ?)", [at, seq]
    events_first = own == EVENT
    if forward:
        return f"AND {time_expr} {'>' if events_first else '>='} ?", [at]
    return f"AND {time_expr} {'<=' if events_first else '<'} ?", [at]


async def _events(store: Store, session: str, key: Key | None, forward: bool, limit: int) -> list[TimelineRow]:
    order = "ASC" if forward else "DESC"
    cond, params = _keyset(key, EVENT, "IFNULL(at, '')", forward)
    sql = (f"SELECT {_EVENT_COLS} FROM events WHERE session = ? {cond} "
           f"ORDER BY IFNULL(at, '') {order}, seq {order} LIMIT ?")
    return [_event_row(r) for r in await store.db.execute_fetchall(sql, (session, *params, limit))]


async def _ledger(store: Store, session: str, key: Key | None, forward: bool, limit: int) -> list[TimelineRow]:
    order = "ASC" if forward else "DESC"
    cond, params = _keyset(key, LEDGER, "at", forward)
    sql = f"SELECT {_LEDGER_COLS} FROM ledger WHERE session = ? {cond} ORDER BY at {order}, seq {order} LIMIT ?"
    return [_ledger_row(r) for r in await store.db.execute_fetchall(sql, (session, *params, limit))]


async def _tombstones(store: Store, session: str, key: Key | None, forward: bool) -> list[TimelineRow]:
    """Placeholders for deleted events beyond ``key`` (deletions are few: read them all)."""
    rows: list[TimelineRow] = []
    for stone in await tombstones(store.db, session):
        row_key: Key = (stone.at, EVENT, stone.seq)
        if key is not None and (row_key <= key if forward else row_key >= key):
            continue
        rows.append(TimelineRow(row_key, "event", stone.seq, stone.at, stone.kind,
                                f"deleted by ledger entry L{stone.ledger_seq}: only its tombstone remains",
                                stone.call_id, marks=("deleted",)))
    return rows


async def _with_pairs(store: Store, session: str, rows: list[TimelineRow]) -> list[TimelineRow]:
    """Fill in each call's result (and each result's call), or mark it unresolved / orphan."""
    ids = sorted({r.call_id for r in rows if r.call_id and r.kind in ("tool_call", "tool_result")})
    if not ids:
        return rows
    partners: dict[tuple[str, str], int] = {k: v for k, v in (await deleted_calls(store.db, session)).items()
                                            if k[0] in ids}
    marks = ", ".join("?" for _ in ids)
    async with store.db.execute(
        f"SELECT call_id, kind, MIN(seq) FROM events WHERE session = ? AND call_id IN ({marks}) "
        "AND kind IN ('tool_call', 'tool_result') GROUP BY call_id, kind", (session, *ids)
    ) as cur:
        for call_id, kind, seq in await cur.fetchall():
            partners[(call_id, kind)] = seq
    out: list[TimelineRow] = []
    for r in rows:
        if r.call_id and r.kind in ("tool_call", "tool_result"):
            other = "tool_result" if r.kind == "tool_call" else "tool_call"
            pair = partners.get((r.call_id, other))
            extra_mark = () if pair is not None else ("unresolved",) if r.kind == "tool_call" else ("orphan",)
            r = TimelineRow(r.key, r.source, r.seq, r.at, r.kind, r.text, r.call_id, r.tool, r.trust, pair,
                            r.marks + extra_mark, r.actor)
        out.append(r)
    return out


async def page(store: Store, session: str, key: Key | None, *, forward: bool = True,
               limit: int = 100) -> list[TimelineRow]:
    """Up to ``limit`` rows after ``key`` (or before it, going back), in timeline order."""
    events = await _events(store, session, key, forward, limit) + await _tombstones(store, session, key, forward)
    entries = await _ledger(store, session, key, forward, limit)
    merged = sorted(events + entries, key=lambda r: r.key, reverse=not forward)[:limit]
    if not forward:
        merged.reverse()
    return await _with_pairs(store, session, merged)


async def counts(store: Store, session: str) -> tuple[int, int]:
    events = (await fetch_one(store.db, "SELECT COUNT(*) FROM events WHERE session = ?", (session,)) or (0,))[0]
    entries = (await fetch_one(store.db, "SELECT COUNT(*) FROM ledger WHERE session = ?", (session,)) or (0,))[0]
    return int(events), int(entries)


async def event_key(store: Store, session: str, seq: int) -> Key:
    row = await fetch_one(store.db, "SELECT IFNULL(at, ''), seq FROM events WHERE session = ? AND seq = ?", (session, seq))
    if row is None:
        raise NotFound(f"event {seq} is not in session {session!r}")
    return (row[0], EVENT, int(row[1]))


async def ledger_key(store: Store, session: str, seq: int) -> Key:
    row = await fetch_one(store.db, "SELECT at FROM ledger WHERE session = ? AND seq = ?", (session, seq))
    if row is None:
        raise NotFound(f"ledger entry {seq} does not belong to session {session!r}")
    return (row[0], LEDGER, seq)


async def around(store: Store, session: str, seq: int, *, limit: int = 100,
                 source: str = "event") -> tuple[list[TimelineRow], int]:
    """A page with event ``seq`` (or ledger entry ``seq``) in it, and its index within the page."""
    key = await (event_key(store, session, seq) if source == "event" else ledger_key(store, session, seq))
    before = await page(store, session, key, forward=False, limit=limit // 2)
    after = await page(store, session, (key[0], key[1], key[2] - 1), forward=True, limit=limit - len(before))
    return before + after, len(before)
