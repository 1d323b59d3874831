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
from inspector.domain.terminal_safe import quoted
from inspector.services.timeline_folds import Fold, Runs, folded_page
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
    folded: tuple[int, int] | None = None  # a follow's run of ledger entries shown as this one row (first, last seq)


# A row shows the head of an event's text: the first PREVIEW_CHARS characters are read, not a pasted
# 30 MB log whole (read, stripped and its line breaks replaced for each row drawn: session 16). A text
# with a NUL before that bound is read whole, as before (SQLite's length and substr stop at a NUL).
PREVIEW_CHARS = 4096
_EVENT_COLS = (f"IFNULL(at, ''), seq, kind, CASE WHEN length(content) > {PREVIEW_CHARS} THEN substr(content, 1, {PREVIEW_CHARS}) ELSE content "
               "END, call_id, tool, trust, extra")
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


# A ledger row's one line starts with what the act was about (the request, the candidate, the key…)
# and ends with the bookkeeping every act carries: stored in key order, a deletion request's row
# read "added={…}, reason_code=…, reason_digest=hmac-s…" and was cut before its id and targets.
_SUBJECT = ("request", "candidate", "handoff", "key", "action", "stub", "generation", "targets", "file_name",
            "format", "new_session", "decision", "status")
_BOOKKEEPING = ("added", "skipped", "removed", "removed_rows", "rewritten", "copies", "initial_status", "status_set",
                "materials", "seals")


def _said_order(key: str) -> tuple[int, int]:
    if key in _SUBJECT:
        return 0, _SUBJECT.index(key)
    if key in _BOOKKEEPING:
        return 2, _BOOKKEEPING.index(key)
    return 1, 0  # the rest keep their stored (key) order: sorted() is stable


def _ledger_row(r: tuple[Any, ...], fold: Fold | None = None, placed: str | None = None) -> TimelineRow:
    """A ledger entry's row: shown with its own stamp, keyed (and merged) by ``placed`` (_placed)."""
    at, seq, kind, actor, payload = r
    place = at if placed is None else placed
    if fold is not None:  # a follow's own imports, one row (services/timeline_folds.py)
        return TimelineRow((place, LEDGER, seq), "ledger", seq, at, "imports", fold.text(), actor=actor,
                           folded=(fold.first_seq, fold.last_seq))
    body = _short_digests(json.loads(payload))
    shown = [k for k in body if k not in {"file_digest", "_sif_extra"}]
    detail = ", ".join(f"{k}={json.dumps(body[k], ensure_ascii=False)}" for k in sorted(shown, key=_said_order))
    return TimelineRow((place, LEDGER, seq), "ledger", seq, at, kind, _one_line(detail), actor=actor)


@dataclass(frozen=True, slots=True)
class TimelineFilter:
    """Which rows to show: kinds (user / assistant / tool / reasoning / system / ledger; empty = all),
    one tool's calls and results, and only failed results (with their calls). Applied in SQL, so a
    filtered million-event session pages as fast as an unfiltered one."""

    kinds: frozenset[str] = frozenset()
    tool: str | None = None
    failed: bool = False

    @property
    def active(self) -> bool:
        return bool(self.kinds or self.tool or self.failed)

    @property
    def ledger(self) -> bool:
        return not self.active or ("ledger" in self.kinds and not self.tool and not self.failed)

    def describe(self) -> str:
        parts = sorted(self.kinds)
        if self.tool:
            parts.append(f"tool={self.tool}")
        if self.failed:
            parts.append("failed")
        return " · ".join(parts) or "all rows"


KIND_SQL = {
    "user": "kind = 'user_message'",
    "assistant": "kind = 'assistant_message'",
    "tool": "kind IN ('tool_call', 'tool_result')",
    "reasoning": "json_extract(extra, '$.reasoning_content') IS NOT NULL",
    "system": "kind IN ('system_message', 'other')",
}
FILTER_KINDS = (*KIND_SQL, "ledger")
_FAILED_RESULT = ("(kind = 'tool_result' AND (json_extract(extra, '$.is_error') = 1 "
                  "OR content GLOB 'Exit code [1-9]*' OR content GLOB 'exit code [1-9]*'))")


def _filter_sql(filt: TimelineFilter | None) -> tuple[str, list[Any]]:
    if filt is None or not filt.active:
        return "", []
    clauses: list[str] = []
    params: list[Any] = []
    kinds = [KIND_SQL[k] for k in sorted(filt.kinds) if k in KIND_SQL]
    if filt.kinds:
        clauses.append(f"({' OR '.join(kinds)})" if kinds else "0")
    if filt.tool:
        clauses.append("kind IN ('tool_call', 'tool_result') AND tool = ?")
        params.append(filt.tool)
    if filt.failed:
        # a failed result, or the call whose result failed
        clauses.append(f"({_FAILED_RESULT} OR (kind = 'tool_call' AND call_id IN (SELECT call_id FROM events "
                       f"WHERE session = events_outer_session AND {_FAILED_RESULT})))")
    return "AND " + " AND ".join(clauses), params


# Events are read in file order (seq), never by their own timestamps: a transcript's clocks are
# not monotone (a progress record stamped before the compaction it follows), and sorting by them
# showed #147, #150, #148, #149 (issue 15, item 4). Ledger entries are merged in by time: an entry
# comes before the first event (in seq order) stamped later than it, i.e. after every event whose
# running maximum time is at most its own.

def _cut_seq(at: str) -> str:
    """SQL: the seq of the first event a ledger entry stamped ``at`` comes before."""
    return "(SELECT IFNULL(MIN(seq), 1 << 62) FROM events WHERE session = ? AND IFNULL(at, '') > ?)"


def _event_cond(key: Key | None, forward: bool) -> tuple[str, list[Any]]:
    if key is None:
        return "", []
    at, src, seq = key
    if src == EVENT:
        return f"AND seq {'>' if forward else '<'} ?", [seq]
    return f"AND seq {'>=' if forward else '<'} {_cut_seq(at)}", ["__session__", at]


def _ledger_cond(key: Key | None, forward: bool) -> tuple[str, list[Any]]:
    """Ledger entries are read in seq order, placed by their running maximum time (see _placed):
    the entries placed at or after a time are those from the first one *stamped* at or after it."""
    if key is None:
        return "", []
    _at, src, seq = key
    if src == LEDGER:
        return f"AND seq {'>' if forward else '<'} ?", [seq]
    running_max = "(SELECT IFNULL(MAX(IFNULL(at, '')), '') FROM events WHERE session = ? AND seq <= ?)"
    cut = f"(SELECT IFNULL(MIN(seq), 1 << 62) FROM ledger WHERE session = ? AND at >= {running_max})"
    return f"AND seq {'>=' if forward else '<'} {cut}", ["__session__", "__session__", seq]


def _bind(params: list[Any], session: str) -> list[Any]:
    return [session if p == "__session__" else p for p in params]


async def _events(store: Store, session: str, key: Key | None, forward: bool, limit: int,
                  filt: TimelineFilter | None = None) -> list[TimelineRow]:
    order = "ASC" if forward else "DESC"
    cond, params = _event_cond(key, forward)
    fcond, fparams = _filter_sql(filt)
    fcond = fcond.replace("events_outer_session", "?")
    if "?" in fcond and filt is not None and filt.failed:
        fparams = [*fparams, session]
    sql = f"SELECT {_EVENT_COLS} FROM events WHERE session = ? {cond} {fcond} ORDER BY seq {order} LIMIT ?"
    rows = await store.db.execute_fetchall(sql, (session, *_bind(params, session), *fparams, limit))
    return [_event_row(r) for r in rows]


async def _ledger(store: Store, session: str, key: Key | None, forward: bool, limit: int) -> list[TimelineRow]:
    async def fetch(at_key: Key | None, ahead: bool, count: int) -> list[Any]:
        order = "ASC" if ahead else "DESC"
        cond, params = _ledger_cond(at_key, ahead)
        sql = f"SELECT {_LEDGER_COLS} FROM ledger WHERE session = ? {cond} ORDER BY seq {order} LIMIT ?"
        return list(await store.db.execute_fetchall(sql, (session, *_bind(params, session), count)))

    found = await folded_page(Runs(store, session, fetch), key, forward, limit)
    placed = await _placed(store, session, [raw[1] for raw, _fold in found])
    return [_ledger_row(raw, fold, placed[raw[1]]) for raw, fold in found]


async def _placed(store: Store, session: str, seqs: list[int]) -> dict[int, str]:
    """Where each ledger entry goes in time: the latest time stamped on it or any earlier entry
    of the session (their running maximum). The ledger's order is its seq; a clock set back
    between two acts stamps the later one earlier, and ordering by the stamp showed the later act
    first (store-fault-seven, found 2). Stamps that agree with seq are their own placement."""
    if not seqs:
        return {}
    low, high = min(seqs), max(seqs)
    row = await fetch_one(store.db, "SELECT IFNULL(MAX(at), '') FROM ledger WHERE session = ? AND seq < ?",
                          (session, low))
    latest = str(row[0]) if row else ""
    out: dict[int, str] = {}
    async with store.db.execute("SELECT seq, at FROM ledger WHERE session = ? AND seq BETWEEN ? AND ? ORDER BY seq",
                                (session, low, high)) as cur:
        async for seq, at in cur:
            latest = max(latest, at or "")
            out[int(seq)] = latest
    return out


async def _tombstones(store: Store, session: str, key: Key | None, forward: bool,
                      filt: TimelineFilter | None) -> list[TimelineRow]:
    """Placeholders for deleted events beyond ``key``, at their seq (deletions are few: read them all)."""
    if filt is not None and filt.active:
        return []
    stones = await tombstones(store.db, session)
    if not stones:
        return []
    bound: int | None = None
    inclusive = False
    if key is not None:
        at, src, seq = key
        if src == EVENT:
            bound = seq
        else:
            row = await fetch_one(store.db, _cut_seq(at), (session, at))
            bound, inclusive = int(row[0]) if row else 1 << 62, True
    rows: list[TimelineRow] = []
    for stone in stones:
        if bound is not None:
            after = stone.seq >= bound if inclusive else stone.seq > bound
            before = stone.seq < bound
            if (forward and not after) or (not forward and not before):
                continue
        rows.append(TimelineRow((stone.at, EVENT, stone.seq), "event", stone.seq, stone.at, stone.kind,
                                f"deleted by ledger entry L{stone.ledger_seq}: only its tombstone remains",
                                stone.call_id, marks=("deleted",)))
    return rows


def _merge(events: list[TimelineRow], entries: list[TimelineRow], floor: str = "") -> list[TimelineRow]:
    """Both ascending; an entry goes before the first event stamped later than it — later than
    the running maximum, which starts at ``floor``, the latest time of the events before the
    page. Comparing each event's own time instead put an entry after a page's events whenever
    an old-stamped event followed the one it belongs before (clocks are not monotone), so two
    pages disagreed about the order and rows showed twice or never while the window slid."""
    out: list[TimelineRow] = []
    i = j = 0
    latest = floor
    while i < len(events) or j < len(entries):
        if i < len(events) and "deleted" not in events[i].marks:  # a tombstone is not in the events table
            ahead = max(latest, events[i].at)
        else:
            ahead = latest
        if j >= len(entries) or (i < len(events) and ahead <= entries[j].key[0]):
            out.append(events[i])
            latest = ahead
            i += 1
        else:
            out.append(entries[j])
            j += 1
    return out


async def _floor(store: Store, session: str, events: list[TimelineRow]) -> str:
    """The latest time of the session's events before the first of ``events`` (the running
    maximum a page's merge starts from); "" when the page starts at the first event."""
    if not events:
        return ""
    row = await fetch_one(store.db, "SELECT IFNULL(MAX(IFNULL(at, '')), '') FROM events WHERE session = ? AND seq < ?",
                          (session, events[0].seq))
    return str(row[0]) if row else ""


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
               limit: int = 100, filt: TimelineFilter | None = None) -> list[TimelineRow]:
    """Up to ``limit`` rows after ``key`` (or before it, going back), in timeline order."""
    events = await _events(store, session, key, forward, limit, filt)
    events = sorted(events + await _tombstones(store, session, key, forward, filt), key=lambda r: r.seq)
    events = events[:limit] if forward else events[-limit:]
    entries = await _ledger(store, session, key, forward, limit) if filt is None or filt.ledger else []
    if not forward:
        entries.reverse()
    merged = _merge(events, entries, await _floor(store, session, events) if entries else "")
    merged = merged[:limit] if forward else merged[-limit:]
    return await _with_pairs(store, session, merged)


async def tools(store: Store, session: str) -> list[tuple[str, int]]:
    """The tools called in a session, most used first (for the tool filter)."""
    rows = await store.db.execute_fetchall(
        "SELECT tool, COUNT(*) FROM events WHERE session = ? AND kind = 'tool_call' AND tool IS NOT NULL "
        "GROUP BY tool ORDER BY COUNT(*) DESC, tool", (session,))
    return [(str(t), int(n)) for t, n in rows]


async def counts(store: Store, session: str) -> tuple[int, int]:
    events = (await fetch_one(store.db, "SELECT COUNT(*) FROM events WHERE session = ?", (session,)) or (0,))[0]
    entries = (await fetch_one(store.db, "SELECT COUNT(*) FROM ledger WHERE session = ?", (session,)) or (0,))[0]
    return int(events), int(entries)


async def event_key(store: Store, session: str, seq: int) -> Key:
    row = await fetch_one(store.db, "SELECT IFNULL(at, ''), seq FROM events WHERE session = ? AND seq = ?", (session, seq))
    if row is None:
        raise NotFound(f"event {seq} is not in session {quoted(session)}")
    return (row[0], EVENT, int(row[1]))


async def ledger_key(store: Store, session: str, seq: int) -> Key:
    row = await fetch_one(store.db, "SELECT at FROM ledger WHERE session = ? AND seq = ?", (session, seq))
    if row is None:
        raise NotFound(f"ledger entry {seq} does not belong to session {quoted(session)}")
    return ((await _placed(store, session, [seq]))[seq], LEDGER, seq)


async def around(store: Store, session: str, seq: int, *, limit: int = 100,
                 source: str = "event", filt: TimelineFilter | None = None) -> tuple[list[TimelineRow], int]:
    """A page with event ``seq`` (or ledger entry ``seq``) in it, and its index within the page."""
    key = await (event_key(store, session, seq) if source == "event" else ledger_key(store, session, seq))
    before = await page(store, session, key, forward=False, limit=limit // 2, filt=filt)
    after = await page(store, session, (key[0], key[1], key[2] - 1), forward=True, limit=limit - len(before),
                       filt=filt)
    return before + after, len(before)
