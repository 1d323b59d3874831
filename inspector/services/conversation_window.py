"""An imported transcript read as a conversation: turns, thinking, tool calls paired with their
results, and compaction boundaries — a window of it at a time, because real sessions run to
thousands of events and single events to 50 MB.

Reads only. Bodies are capped here (``BODY_CHARS``) so no caller can ask the terminal to lay out
a 50 MB Markdown document; the whole event is always one ``enter`` away in the raw view.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from inspector.domain.short_ids import human_size, short_id
from inspector.services.channels import original_text
from inspector.services.timeline import _FAILED_RESULT, TimelineFilter, _filter_sql
from inspector.store.connection import Store

BODY_CHARS = 4_000  # a turn's text shown at first
EXPANDED_CHARS = 64_000  # after "show more"; beyond it the raw view (enter) shows the event
WINDOW = 60  # events read per window


@dataclass(frozen=True, slots=True)
class Turn:
    """One block of the conversation. ``kind``: user, assistant, thinking, tool, compaction,
    microcompaction, system, result (its call lies before the window), orphan_result."""

    kind: str
    seq: int
    at: str
    text: str  # capped at EXPANDED_CHARS; the view caps further at BODY_CHARS until expanded
    size: int  # the full text's length in characters
    tool: str | None = None
    call_id: str | None = None
    result_seq: int | None = None
    result_text: str = ""
    result_size: int = 0
    status: str = ""  # tool: ok / failed / no result
    covers: str = ""  # compaction: what the summary covers
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def short_call(self) -> str:
        return short_id(self.call_id)


def _cap(text: str | None) -> tuple[str, int]:
    text = text or ""
    return text[:EXPANDED_CHARS], len(text)


async def _results(store: Store, session: str, call_ids: list[str]) -> dict[str, tuple[int, str, int, bool]]:
    """call id -> (result seq, text (capped), full size, failed) of its first result."""
    if not call_ids:
        return {}
    marks = ", ".join("?" for _ in call_ids)
    rows = await store.db.execute_fetchall(
        f"SELECT call_id, seq, substr(content, 1, {EXPANDED_CHARS}), length(content), {_FAILED_RESULT} "
        f"FROM events WHERE session = ? AND kind = 'tool_result' AND call_id IN ({marks}) ORDER BY seq",
        (session, *call_ids))
    out: dict[str, tuple[int, str, int, bool]] = {}
    for call_id, seq, text, size, failed in rows:
        out.setdefault(call_id, (int(seq), text or "", int(size or 0), bool(failed)))
    return out


async def window(store: Store, session: str, start_seq: int = 0, *, forward: bool = True, limit: int = WINDOW,
                 filt: TimelineFilter | None = None) -> list[Turn]:
    """Turns made from up to ``limit`` events after ``start_seq`` (or before it, going back), in seq order.
    A tool result is drawn inside its call's block; a result whose call is elsewhere stands alone."""
    fcond, fparams = _filter_sql(filt)
    fcond = fcond.replace("events_outer_session", "?")
    if filt is not None and filt.failed:
        fparams = [*fparams, session]
    cond = "seq > ?" if forward else "seq < ?"
    rows = await store.db.execute_fetchall(
        f"SELECT seq, IFNULL(at, ''), kind, substr(content, 1, {EXPANDED_CHARS}), length(content), call_id, tool, "
        f"extra FROM events WHERE session = ? AND {cond} {fcond} ORDER BY seq {'ASC' if forward else 'DESC'} LIMIT ?",
        (session, start_seq, *fparams, limit))
    rows = sorted(rows)
    calls = [r[5] for r in rows if r[2] == "tool_call" and r[5]]
    results = await _results(store, session, calls)
    called = set(calls)
    gens = await _generations(store, session)
    turns: list[Turn] = []
    for seq, at, kind, text, size, call_id, tool, extra_text in rows:
        extra = json.loads(extra_text) if extra_text and extra_text != "{}" else {}
        size = int(size or 0)
        if extra.get("reasoning_content"):
            thought, tsize = _cap(extra["reasoning_content"])
            turns.append(Turn("thinking", seq, at, thought, tsize))
        if kind == "tool_call":
            args = json.dumps(extra.get("args", {}), ensure_ascii=False, indent=1)
            found = results.get(call_id or "")
            status = "no result" if found is None else "failed" if found[3] else "ok"
            turns.append(Turn("tool", seq, at, args[:EXPANDED_CHARS], len(args), tool, call_id,
                              found[0] if found else None, found[1] if found else "", found[2] if found else 0,
                              status))
        elif kind == "tool_result":
            if call_id in called:
                continue
            call_seq = await _call_seq(store, session, call_id)
            turns.append(Turn("result" if call_seq is not None else "orphan_result", seq, at, text or "", size, tool,
                              call_id, extra={"call_seq": call_seq}))
        elif kind == "user_message":
            turns.append(Turn("user", seq, at, text or "", size))
        elif kind == "assistant_message":
            if text:
                turns.append(Turn("assistant", seq, at, text, size))
        elif extra.get("subtype") == "compact_boundary" or extra.get("compact_summary"):
            gen = next((g for g in gens if g["covers"] and g["covers"][1] + 1 in (seq, seq - 1)), None)
            if extra.get("compact_summary") and turns and turns[-1].kind == "compaction":
                last = turns.pop()  # the summary record right after its boundary: one divider, with its text
                turns.append(Turn("compaction", last.seq, last.at, text or "", size, covers=last.covers,
                                  extra={**last.extra, "boundary": last.text}))
                continue
            covers = (f"summary generation {gen['generation']} covers evt:{gen['covers'][0]}–{gen['covers'][1]}"
                      if gen else "the summary that follows")
            turns.append(Turn("compaction", seq, at, text or "", size, covers=covers,
                              extra={"generation": gen["generation"] if gen else None}))
        elif extra.get("subtype") == "microcompact_boundary":
            turns.append(Turn("microcompaction", seq, at, text or "", size))
        else:
            turns.append(Turn("system", seq, at, text or kind, size))
    return turns


async def _call_seq(store: Store, session: str, call_id: str | None) -> int | None:
    """Where a result's call is, when it lies outside the window (None: not in the log at all)."""
    if not call_id:
        return None
    rows = await store.db.execute_fetchall(
        "SELECT MIN(seq) FROM events WHERE session = ? AND call_id = ? AND kind = 'tool_call'", (session, call_id))
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


async def _generations(store: Store, session: str) -> list[dict[str, Any]]:
    rows = await store.db.execute_fetchall(
        "SELECT generation, covers FROM summaries WHERE session = ? ORDER BY generation", (session,))
    out = []
    for generation, covers in rows:
        span = json.loads(covers) if covers else None
        out.append({"generation": generation,
                    "covers": tuple(span) if isinstance(span, list) and len(span) == 2 else None})
    return out


@dataclass(frozen=True, slots=True)
class Cleared:
    call_id: str
    call_seq: int | None
    result_seq: int | None
    tool: str | None


async def cleared_results(store: Store, session: str, origin: dict[str, Any]) -> list[Cleared]:
    """The tool results a micro-compaction cleared, named by their events (read from its original line)."""
    line = await original_text(store, session, origin)
    try:
        meta = json.loads(line or "").get("microcompactMetadata") or {}
    except (ValueError, AttributeError):
        return []
    ids = [i for i in meta.get("compactedToolIds") or [] if isinstance(i, str)]
    if not ids:
        return []
    marks = ", ".join("?" for _ in ids)
    rows = await store.db.execute_fetchall(
        f"SELECT call_id, kind, MIN(seq), MAX(tool) FROM events WHERE session = ? AND call_id IN ({marks}) "
        "GROUP BY call_id, kind", (session, *ids))
    seqs: dict[tuple[str, str], tuple[int, str | None]] = {(c, k): (s, t) for c, k, s, t in rows}
    return [Cleared(i, (seqs.get((i, "tool_call")) or (None,))[0], (seqs.get((i, "tool_result")) or (None,))[0],
                    (seqs.get((i, "tool_call")) or seqs.get((i, "tool_result")) or (None, None))[1]) for i in ids]


def size_label(n: int) -> str:
    return human_size(n)
