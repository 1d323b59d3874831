"""verify's checks of the record rows against the ledger walk (verify_chain.py): each
session's versions and place in the list, each table's row count per session, each row's own
digest, and each (session, type)'s rows against the seal of the last act that changed them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.domain.sif import identity_digest
from inspector.domain.terminal_safe import inert
from inspector.services.verify_report import VerifyReport
from inspector.store import seals, session_rows
from inspector.store.connection import Store
from inspector.store.jsoncodec import is_canonical_text
from inspector.store.tables import SPECS, TableSpec


async def check_sessions(store: Store, versions: dict[str, tuple[int | None, int | None]],
                         report: VerifyReport) -> None:
    for sid, (gr, cv) in (await session_rows.versions(store.db)).items():  # columns only: a damaged extra is not read
        want_cv, want_gr = versions.get(sid, (None, None))
        if want_cv is None:
            report.fail({"where": "sessions", "id": sid, "code": "session_unledgered",
                         "message": f"session {inert(sid)} has no ledger entry"})
            continue
        if (cv, gr) != (want_cv, want_gr):
            report.fail({"where": "sessions", "id": sid, "code": "versions_differ",
                         "message": f"session {inert(sid)} shows context v{cv} / goal r{gr} but the ledger says "
                                    f"v{want_cv} / r{want_gr}"})


async def check_session_order(store: Store, created: list[str], report: VerifyReport) -> None:
    """Sessions are listed (and exported) in stored order: that order must be the order of
    their first ledger entries, so rows moved or swapped in the table show."""
    rank = {sid: i for i, sid in enumerate(created)}
    stored = [sid for sid in await session_rows.ids(store.db) if sid in rank]
    for before, after in zip(stored, stored[1:], strict=False):
        if rank[before] > rank[after]:
            report.fail({"where": "sessions", "id": after, "code": "sessions_reordered",
                         "message": f"session {inert(after)} is stored before {inert(before)} was, though the ledger created "
                                    "it later: the sessions were reordered outside an act (lists and exports show "
                                    "them in another order)"})
            return


async def check_counts(store: Store, counts: Counter[tuple[str, str]], report: VerifyReport) -> None:
    for type_, spec in SPECS.items():
        column = "id" if type_ == "session" else "session"
        actual = {row[0]: int(row[1]) for row in await store.db.execute_fetchall(
            f"SELECT {column}, COUNT(*) FROM {spec.table} GROUP BY {column}")}
        sessions = {s for (s, t) in counts if t == type_} | set(actual)
        for sid in sessions:
            want, have = counts.get((sid, type_), 0), actual.get(sid, 0)
            if want != have:
                report.fail({"where": spec.table, "session": sid, "code": "row_count_differs",
                             "message": f"{spec.table} holds {have} rows for {inert(sid)}; the ledger accounts for {want}"})


async def check_digests(store: Store, report: VerifyReport) -> None:
    for type_, spec in SPECS.items():
        async with store.db.execute(f"SELECT {spec.select_columns}, digest FROM {spec.table}") as cur:
            async for row in batched(cur):
                try:
                    record = spec.to_record(row)
                except (ValueError, TypeError) as exc:  # a JSON column is no longer JSON: edited, not a crash
                    report.fail({"where": spec.table, "code": "row_unreadable",
                                 "message": f"a {type_} row was edited in place: a JSON column no longer parses "
                                            f"({exc})"})
                    continue
                spelled = _respelled(spec, row)
                if spelled is not None:
                    ident = {k: record.get(k) for k in ("session", "id", "seq", "key", "version", "generation")
                             if k in record}
                    report.fail({"where": spec.table, **ident, "code": "row_text_differs",
                                 "message": f"the {type_} row ({', '.join(f'{k} {inert(v)}' for k, v in ident.items())}) "
                                            f"in {spec.table} had its {spelled} column rewritten in a form its "
                                            "digest cannot see (a key repeated, reordered or spaced): the digest "
                                            "binds the parsed value, but SQL reads (json_extract takes a repeated "
                                            "key's first value) show others, e.g. in the timeline and the budget"})
                if identity_digest(type_, record) != row[-1]:
                    ident = {k: record.get(k) for k in ("session", "id", "seq", "key", "version", "generation")
                             if k in record}
                    named = ", ".join(f"{k} {inert(v)}" for k, v in ident.items())
                    report.fail({"where": spec.table, **ident, "code": "row_digest_mismatch",
                                 "message": f"the {type_} row ({named}) in {spec.table} was edited in place (its "
                                            "digest no longer matches)"})


def _respelled(spec: TableSpec, row: Any) -> str | None:
    """The first JSON column of ``row`` whose stored text is not the canonical text of its value
    (what every write stores): the digest is over parsed values, so a key repeated in front of the
    real one, which SQLite's JSON functions read and Python's parser drops, is seen only here."""
    for i, name in enumerate(spec.columns):
        if name in spec.json_columns and row[i] is not None and not is_canonical_text(row[i]):
            return name
    extra = row[len(spec.columns)]
    return "extra" if extra != "{}" and not is_canonical_text(extra) else None


async def check_seals(store: Store, sealed: dict[tuple[str, str], tuple[int, list[str]]],
                      report: VerifyReport) -> None:
    """Each (session, type)'s rows against the seal of the last act that changed them (through
    the links of appending imports since the last whole seal): a row edited with its digest
    recomputed, added, removed or reordered outside an act shows here."""
    stored = await session_rows.ids(store.db)
    by_type = {type_: await _digests_by_session(store, type_) for type_ in SPECS}
    for sid in stored:
        for type_ in SPECS:
            got = sealed.get((sid, type_))
            if got is None:
                report.not_sealed.append(f"{sid}/{type_}")
                continue
            seq, chain = got
            links = [v for v in chain if seals.link_size(v) is not None]
            rows = by_type[type_].get(sid, [])
            if seals.expected(store.digest_key, type_, rows, links) != chain[-1]:
                report.fail({"where": SPECS[type_].table, "session": sid, "seq": seq, "code": "seal_mismatch",
                             "message": f"the {type_} rows of session {inert(sid)} are not the ones ledger entry {seq} "
                                        "sealed: a row was edited (its digest recomputed), added, removed or "
                                        "reordered outside an act"})


async def _digests_by_session(store: Store, type_: str) -> dict[str, list[str]]:
    """Every session's row digests of ``type_`` in insertion order (seals.py ``digests``), in one
    query per type rather than one per session and type."""
    spec = SPECS[type_]
    column = "id" if type_ == "session" else "session"
    order = seals._order_column(type_)  # the order a seal covers (insertion order)
    out: dict[str, list[str]] = {}
    async with store.db.execute(f"SELECT {column}, digest FROM {spec.table} ORDER BY {column}, {order}") as cur:
        async for sid, digest in batched(cur):
            out.setdefault(sid, []).append(str(digest))
    return out


def batched(cur: Any, size: int = 512) -> Any:
    """``cur`` fetching ``size`` rows per trip to the database thread (aiosqlite fetches one by
    default: a thread hop per row); unchanged where the backend's cursor has no such setting."""
    try:
        cur.arraysize = size
    except AttributeError:
        pass
    return cur
