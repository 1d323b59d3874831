"""verify's walk of the ledger: the hash chain entry by entry, and what the rows are checked
against afterwards — each session's last versions, the rows each act added or removed, the
seals, the replayed statuses.

An entry whose payload is no longer JSON is a break to report (``ledger_unreadable``), not an
exception; the walk goes on so the later checks still see every other entry.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from inspector.domain.canonical import GENESIS_HASH, canonical_json, ledger_hash
from inspector.domain.terminal_safe import inert
from inspector.services.replay import Replay
from inspector.services.verify_report import VerifyReport
from inspector.store import ledger, seals
from inspector.store.connection import Store
from inspector.store.tables import SPECS


@dataclass(slots=True)
class LedgerFacts:
    """What the ledger says the rows must be."""

    versions: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    # each session at its first entry the inspector wrote (the import or act that made its row): an
    # entry copied from a file (source 'sif') is written before its session's import entry, so it
    # says nothing about the order the rows went in
    created: dict[str, None] = field(default_factory=dict)
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    replay: Replay = field(default_factory=Replay)
    # per (session, type): the seq of the last entry that sealed it and the seals since the last whole one
    sealed: dict[tuple[str, str], tuple[int, list[str]]] = field(default_factory=dict)


async def walk(store: Store, report: VerifyReport, head: tuple[int, str] | None,
               progress: Callable[[int, int], None] | None = None) -> LedgerFacts:
    facts = LedgerFacts()
    pinned: str | None = None
    prev = GENESIS_HASH
    expected_seq = 1
    total = 0
    latest: list[Any] = [None, 0, ""]  # the latest time an inspector entry was stamped: (parsed, seq, as written)
    if progress is not None:
        rows = await store.db.execute_fetchall("SELECT COUNT(*) FROM ledger")
        total = int(rows[0][0]) if rows else 0
    async for entry, problem, text in _entries(store):
        report.entries += 1
        if progress is not None and report.entries % 250 == 0:
            progress(report.entries, total)
        report.head = {"seq": entry.seq, "hash": entry.hash}
        if head is not None and entry.seq == head[0]:
            pinned = entry.hash
        at = {"where": "ledger", "seq": entry.seq}
        if problem:
            report.fail({**at, "code": "ledger_unreadable", "message": problem})
        if entry.seq != expected_seq:
            report.fail({**at, "code": "ledger_gap",
                         "message": f"ledger entry {expected_seq} is missing (next is {entry.seq})"})
        expected_seq = entry.seq + 1
        if entry.prev_hash != prev:
            report.fail({**at, "code": "ledger_link_broken",
                         "message": f"entry {entry.seq} does not point at the previous entry's hash"})
        if not problem and ledger_hash(entry.prev_hash, entry.body()) != entry.hash:
            report.fail({**at, "code": "ledger_hash_mismatch",
                         "message": f"entry {entry.seq} was changed after it was written "
                                    "(its hash does not match its content)"})
        elif not problem and text != canonical_json(entry.payload):
            report.fail({**at, "code": "ledger_text_differs",
                         "message": f"entry {entry.seq}'s payload was rewritten outside the inspector in a form its "
                                    "hash cannot see (a key repeated, reordered or spaced): the hash binds the "
                                    "parsed value, but SQL reads (json_extract takes a repeated key's first "
                                    "value) show others, e.g. in `actions` and `history`"})
        prev = entry.hash
        _clock(entry, report, latest)
        _track(entry, facts)
        if entry.kind == "action.reconcile" and entry.source == "inspector" and not (
                entry.payload.get("evidence") and entry.payload.get("reason")):
            report.fail({**at, "code": "reconcile_unexplained",
                         "message": f"entry {entry.seq} reconciles action {inert(entry.payload.get('action'))} "
                                    "without naming evidence and a reason"})
        if entry.source == "inspector" and (missing := act_incomplete(entry.kind, entry.payload)):
            report.fail({**at, "code": "act_incomplete",
                         "message": f"entry {entry.seq} ({entry.kind}) names {missing}, which every such act of the "
                                    "inspector does: an entry appended by hand, changing nothing it claims to"})
        facts.replay.feed(entry.session, entry.kind, entry.source, entry.payload)
        _track_seals(entry, facts.sealed)
    if head is not None:
        check_head(report, head, pinned)
    report.not_replayed = sorted(facts.replay.unbound)
    return facts


# The rows an act of each kind always adds, and the kinds that always set a status: an entry of the
# inspector's own that names neither was appended by hand (a `correction` of a key with no new
# version, shown by `history` as "L8 correction by owner: …" while the record stayed as it was;
# docs/reviews/untrusted-seven.md). Forging the act whole (its rows and seals too) stays what
# `relies_on` says: actors are names, and the store's key is in the store.
ADDS = {"correction": "state", "summary.correction": "summary", "summary.rebuild": "summary",
        "deletion.request": "deletion_request"}
SETS_STATUS = ("candidate.accept", "candidate.reject", "action.reconcile", "confirmation", "handoff.accept",
               "deletion")


def act_incomplete(kind: str, payload: dict[str, Any]) -> str | None:
    """What an inspector entry of ``kind`` lacks (in words), or None."""
    if kind in ADDS:
        added = payload.get("added")
        count = added.get(ADDS[kind]) if isinstance(added, dict) else None
        if not (isinstance(count, int) and not isinstance(count, bool) and count >= 1):
            return f"no {ADDS[kind]} row it added"
    if kind in SETS_STATUS and not payload.get("status_set"):
        return "no status it set"
    return None


def _clock(entry: Any, report: VerifyReport, latest: list[Any]) -> None:
    """Note an entry the inspector stamped earlier than one it stamped before (imported entries
    carry the harness's times, which owe no order)."""
    if entry.source != "inspector":
        return
    try:
        when = datetime.fromisoformat(str(entry.at))
    except ValueError:
        return
    when = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    if latest[0] is not None and when < latest[0]:
        report.clock_went_back.append({"seq": entry.seq, "at": entry.at, "after_seq": latest[1], "after": latest[2]})
        return
    latest[:] = [when, entry.seq, entry.at]


def check_head(report: VerifyReport, head: tuple[int, str], pinned: str | None) -> None:
    seq, digest = head
    last = int(report.head["seq"])
    if last < seq:
        report.fail({"where": "ledger", "seq": last + 1, "code": "head_truncated",
                     "message": f"the ledger ends at entry {last}, but entry {seq} was pinned: entries "
                                f"{last + 1}–{seq} were removed (a truncated tail)"})
    elif pinned != digest:
        report.fail({"where": "ledger", "seq": seq, "code": "head_rewritten",
                     "message": f"entry {seq} now hashes to {str(pinned)[:12]}…, not the pinned {digest[:12]}…: "
                                "the history up to it was rewritten"})


async def _entries(store: Store) -> AsyncIterator[tuple[ledger.LedgerEntry, str | None, str]]:
    """Every entry in order with the reason it cannot be read, if any (a payload that is no
    longer JSON is a break to report, not an exception), and its payload's stored text."""
    after = 0
    while True:
        rows = await store.db.execute_fetchall(
            f"SELECT {ledger.COLUMNS.replace('payload', 'CAST(payload AS BLOB)')} FROM ledger WHERE seq > ? "
            "ORDER BY seq LIMIT 2000", (after,))
        if not rows:
            return
        for row in rows:
            problem, text = None, ""
            try:
                text = bytes(row[5]).decode("utf-8")
                payload = json.loads(text)
                if not isinstance(payload, dict):
                    raise ValueError("not an object")
            except (ValueError, TypeError, UnicodeDecodeError) as exc:
                payload, problem = {}, f"entry {row[0]}'s payload is no longer a JSON object ({exc})"
            yield ledger.LedgerEntry(row[0], row[1], row[2], row[3], row[4], payload, row[6], row[7], row[8],
                                     row[9]), problem, text
        after = int(rows[-1][0])


def _track(entry: ledger.LedgerEntry, facts: LedgerFacts) -> None:
    if entry.session is None:
        return
    cv, gr = facts.versions.get(entry.session, (None, None))
    p = entry.payload
    if isinstance(p.get("context_version"), int):
        cv = p["context_version"]
    if isinstance(p.get("goal_revision"), int):
        gr = p["goal_revision"]
    facts.versions[entry.session] = (cv, gr)
    if entry.source != "sif":
        facts.created.setdefault(entry.session)  # dicts keep first insertion: the order sessions were created in
    for key, sign in (("added", 1), ("removed", -1)):
        for type_, n in (p.get(key) or {}).items() if entry.source == "inspector" else ():
            if isinstance(n, int):
                facts.counts[(entry.session, type_)] += sign * n


def _track_seals(entry: ledger.LedgerEntry, sealed: dict[tuple[str, str], tuple[int, list[str]]]) -> None:
    """Per (session, type): the seq of the last entry that sealed it and the seals since the last
    whole one (a whole seal alone, or a whole seal's value then the links that chain on it)."""
    found = entry.payload.get(seals.SEALED)
    if entry.source != "inspector" or entry.session is None or not isinstance(found, dict):
        return
    for type_, value in found.items():
        if type_ in SPECS and isinstance(value, str):
            got = sealed.get((entry.session, type_))
            chain = got[1] if got is not None and seals.link_size(value) is not None else []
            sealed[(entry.session, type_)] = (entry.seq, [*chain, value])
