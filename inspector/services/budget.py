"""The budget of a session's next request, from what the store holds now.

Raw evidence is ranked by relevance to the open task (see inspector.domain.budget); this
module reads why each event matters: the results of failed actions and results that read
as failures, the events active records cite, the events behind the newest summary's
unresolved markers, the calls and results of unknown or in-flight actions, and the
expansions already made for the next request.
"""

from __future__ import annotations

import json

import aiosqlite

from inspector.domain import failures
from inspector.domain.budget import NEWEST, BudgetPlan, Item, estimate_tokens, plan_budget, rank_evidence
from inspector.domain.errors import BadInput
from inspector.domain.logevents import LogEvent
from inspector.services.channels import evidence, generations, state_records
from inspector.services.sessions import get_session
from inspector.store import materials
from inspector.store.connection import Store, fetch_one

DEFAULT_SPLIT = (20, 30, 50)
# The request the app's Budget tab plans first, and `inspector budget` when no --window is given:
# one place, so the tab and the command print the same plan for the same session.
DEFAULT_REQUEST = {"window": 128_000, "fixed": 8_000, "reserve": 4_000}
RESERVED_READ_CAP = 1024 * 1024  # bytes read to count one reserved expansion; beyond it, 3 bytes a token


def _events_cited(sources: list[str]) -> list[str]:
    return [s for s in sources if s.startswith("evt:")]


async def _tools(db: aiosqlite.Connection, session: str) -> dict[tuple[str, str], tuple[str | None, bool]]:
    """(call_id, kind) → (tool, flagged is_error) for the session's calls and results."""
    rows = await db.execute_fetchall(
        "SELECT call_id, kind, tool, json_extract(extra, '$.is_error') FROM events WHERE session = ? "
        "AND call_id IS NOT NULL AND kind IN ('tool_call', 'tool_result')", (session,))
    return {(str(c), str(k)): (t, bool(e) and str(e) not in ("0", "false")) for c, k, t, e in rows}


def _failure(seq: int, text: str, call_id: str | None,
             tools: dict[tuple[str, str], tuple[str | None, bool]]) -> str | None:
    """Why a result failed, in a few words, or None (domain/failures.py decides)."""
    tool, flagged = tools.get((call_id or "", "tool_result"), (None, False))
    call_tool = tools.get((call_id or "", "tool_call"), (None, False))[0]
    result = LogEvent(seq, "tool_result", None, text, tool, call_id, is_error=flagged)
    call = LogEvent(0, "tool_call", None, None, call_tool, call_id) if call_tool else None
    if not failures.failed(result, call):
        return None
    if flagged:
        return "flagged as an error"
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return f"“{line[:60]}{'…' if len(line) > 60 else ''}”"


async def _relevance(db: aiosqlite.Connection, session: str, rows: list[tuple[int, str, str, str | None]],
                     records: list, unresolved: list[str]) -> dict[str, list[tuple[int, str]]]:
    why: dict[str, list[tuple[int, str]]] = {}

    def add(ref: str, tier: int, reason: str) -> None:
        why.setdefault(ref, []).append((tier, reason))

    by_call: dict[str, list[int]] = {}
    kinds = {seq: kind for seq, kind, _text, _call in rows}
    tools = await _tools(db, session)
    for seq, kind, text, call_id in rows:
        if call_id:
            by_call.setdefault(call_id, []).append(seq)
        # A failure as facts and drift judge one (flagged, a non-zero exit, a shell's failed tests):
        # any word "failed" in a result put the Read of every source file that says it first.
        if kind == "tool_result" and (failure := _failure(seq, text, call_id, tools)):
            add(f"evt:{seq}", 0, f"failed result ({failure})")
    for action, status, call_id in await db.execute_fetchall(
            "SELECT id, status, call_id FROM actions WHERE session = ? AND status IN ('failed', 'unknown', 'in_flight')",
            (session,)):
        for seq in by_call.get(call_id or "", []):
            if status == "failed":
                add(f"evt:{seq}", 0, f"failed result (action {action} failed)"
                    if kinds.get(seq) == "tool_result" else f"call of failed action {action}")
            else:
                add(f"evt:{seq}", 3, f"action {action} is {status.replace('_', ' ')}")
    for r in records:
        if r.status == "active":
            for ref in _events_cited(r.sources):
                add(ref, 1, f"cited by active {r.key}")
    for marker in unresolved:
        for r in records:
            if r.value == marker and r.status != "superseded":
                for ref in _events_cited(r.sources):
                    add(ref, 2, f"behind unresolved “{marker}”")
        for seq, _kind, text, _call in rows:
            if marker and marker in text:
                add(f"evt:{seq}", 2, f"mentions unresolved “{marker}”")
    return why


async def _reserved_expansions(store: Store, session: str) -> list[Item]:
    """Expansions made since the newest event: they go into the next request, so they count first."""
    last = await fetch_one(store.db, "SELECT MAX(at) FROM events WHERE session = ?", (session,))
    since = last[0] if last and last[0] else ""
    out: dict[tuple[str, int, int], Item] = {}
    for seq, actor, payload in await store.db.execute_fetchall(
            "SELECT seq, actor, payload FROM ledger WHERE session = ? AND kind = 'expand' AND at >= ? ORDER BY seq",
            (session, since)):
        p = json.loads(payload)
        start, end = int(p["range"][0]), int(p["range"][1])
        key = (str(p["material"]), start, end)
        if key in out:
            continue
        m = await materials.find_material(store.db, session, key[0])
        if m is None or m.deleted_at is not None:
            continue
        if end - start <= RESERVED_READ_CAP:
            read = await materials.read_range(store.db, m, start, end)
            tokens = estimate_tokens(read.data.decode("utf-8", errors="replace"))
        else:
            tokens = (end - start) // 3
        out[key] = Item(f"{p.get('stub', key[0])}[{start},{end})", tokens, f"expansion of {key[0]}",
                        f"expansion reserved for the next request (L{seq} by {actor})")
    return list(out.values())


async def budget(store: Store, session: str, *, window: int, fixed: int, reserve: int,
                 split: tuple[int, int, int] = DEFAULT_SPLIT) -> BudgetPlan:
    history = window - fixed - reserve
    if history <= 0:
        raise BadInput(f"window {window:,} − fixed {fixed:,} − reserve {reserve:,} leaves no history budget")
    if len(split) != 3 or any(s < 0 for s in split) or not sum(split):
        raise BadInput("--split takes three non-negative weights for state, summary, evidence, e.g. 20,30,50")
    await get_session(store, session)
    records = await state_records(store, session)
    state = [Item(f"state:{r.key}@v{r.version}", estimate_tokens(f"{r.kind} {r.key}: {r.value}"), r.kind,
                  "protected state: always loaded, never truncated") for r in records if r.status == "active"]
    pending = [Item(f"state:{r.key}@v{r.version}", estimate_tokens(r.value), r.kind)
               for r in records if r.status == "pending"]
    gens = await generations(store, session)
    summary = Item(f"gen:{gens[0].generation}", estimate_tokens(gens[0].text), gens[0].kind,
                   "newest summary generation") if gens else None
    rows = [(int(seq), kind, text, call_id) for seq, kind, text, call_id in await store.db.execute_fetchall(
        "SELECT seq, kind, IFNULL(content, '') || IFNULL(json_extract(extra, '$.reasoning_content'), ''), call_id "
        "FROM events WHERE session = ? ORDER BY seq DESC", (session,))]
    events = [Item(f"evt:{seq}", estimate_tokens(text) + 4, kind, NEWEST) for seq, kind, text, _ in rows]
    why = await _relevance(store.db, session, rows, records, gens[0].unresolved if gens else [])
    folded = [Item(m.id, m.size // 4, f"{m.size:,} bytes") for m in await evidence(store, session)
              if m.size > 0 and not m.deleted and not m.id.startswith("original:")]
    return plan_budget(history, split, state, pending, summary, rank_evidence(events, why), folded,
                       await _reserved_expansions(store, session))
