"""Finding one record by the id a person types, in any session unless one is named."""

from __future__ import annotations

from typing import Any

import aiosqlite

from inspector.domain.errors import BadInput, NotFound
from inspector.domain.terminal_safe import quoted
from inspector.store import session_rows
from inspector.store.tables import SPECS


async def load_by_id(db: aiosqlite.Connection, type_: str, record_id: str, session: str | None) -> dict[str, Any]:
    """The one ``type_`` record with this id; an id used in several sessions is refused as
    ``ambiguous_id`` (bad input, exit 3) naming them, until ``--session`` says which."""
    spec = SPECS[type_]
    where = "id = ?" + (" AND session = ?" if session else "")
    rows = [spec.to_record(r) for r in await db.execute_fetchall(
        f"SELECT {spec.select_columns} FROM {spec.table} WHERE {where}", (record_id, session) if session else (record_id,))]
    noun = type_.replace("_", " ")
    if not rows and session and not await session_rows.exists(db, session):  # not "it holds no … at all"
        raise await session_rows.no_session(db, session)
    if not rows:
        raise NotFound(f"no {noun} {quoted(record_id)}" + (f" in session {quoted(session)}" if session else "")
                       + (await _did_you_mean(db, spec.table, record_id, session)
                          or (await _a_material(db, record_id, session) if type_ == "stub" else "")
                          or await _which_exist(db, spec.table, noun, session)))
    if len(rows) > 1:  # ids are unique per session only: which one is meant is the person's to say
        sessions = sorted(str(r["session"]) for r in rows)
        raise BadInput(f"{noun} {quoted(record_id)} is ambiguous: it exists in {len(sessions)} sessions "
                       f"({', '.join(sessions)}); nothing was changed — name one with --session "
                       f"(e.g. --session {sessions[0]})", code="ambiguous_id")
    return rows[0]


async def _did_you_mean(db: aiosqlite.Connection, table: str, typed: str, session: str | None) -> str:
    """Whole ids holding what was typed: a stub's id without its ``stub:`` (as the raw log names
    the call), or the tail the app shows after ``…``. Ids are matched whole, so say which."""
    if not typed:
        return ""
    where = "instr(id, ?) > 0" + (" AND session = ?" if session else "")
    found = [str(r[0]) for r in await db.execute_fetchall(
        f"SELECT DISTINCT id FROM {table} WHERE {where} ORDER BY id LIMIT 4", (typed, session) if session else (typed,))]
    rule = "an id is given whole"
    if not found:  # typed in other letter case (`CAND-GOOD`): the first ids listed instead may not hold it
        rule = "an id is given in its own letter case"
        where = "instr(lower(id), ?) > 0" + (" AND session = ?" if session else "")
        found = [str(r[0]) for r in await db.execute_fetchall(
            # DISTINCT in a subquery: PostgreSQL refuses an ORDER BY on what the DISTINCT list lacks
            # (length(id)), said as a store that cannot be read for `accept STORE CAND-NOSUCH` there
            f"SELECT id FROM (SELECT DISTINCT id FROM {table} WHERE {where}) AS found ORDER BY length(id), id LIMIT 4",
            (typed.lower(), session) if session else (typed.lower(),))]
    if not found:
        return ""
    shown = ", ".join(found[:3]) + (" or another" if len(found) > 3 else "")
    return f"; {rule}: did you mean {shown}?"


async def _a_material(db: aiosqlite.Connection, typed: str, session: str | None) -> str:
    """``expand STORE res:run-184`` (or the original's id): a material, which a stub names a range of."""
    where = "id = ?" + (" AND session = ?" if session else "")
    params = (typed, session) if session else (typed,)
    if not await db.execute_fetchall(f"SELECT 1 FROM materials WHERE {where} LIMIT 1", params):
        return ""
    stubs = [str(r[0]) for r in await db.execute_fetchall(
        f"SELECT DISTINCT id FROM stubs WHERE {where.replace('id = ?', 'material = ?')} ORDER BY id LIMIT 3", params)]
    if stubs:
        return f"; {typed} is a material: expand one of its stubs ({', '.join(stubs)})"
    return (f"; {typed} is a material no stub names, so there is no range to expand "
            "(`inspector export STORE --session S --original -o FILE` writes an imported transcript byte for byte)")


async def _which_exist(db: aiosqlite.Connection, table: str, noun: str, session: str | None) -> str:
    """What there is to type instead, when nothing holds what was typed: "no deletion request
    'del-1'" left a reviewer guessing whether the id was wrong or the store held none at all —
    and candidates, handoffs and deletion requests come only from a sif/1 file, which it did
    not say (no transcript importer makes them)."""
    where = " WHERE session = ?" if session else ""
    params = (session,) if session else ()
    count = int((await db.execute_fetchall(f"SELECT count(DISTINCT id) FROM {table}{where}", params))[0][0])
    place = "it" if session else "the store"
    if count == 0:
        origin = FROM_SIF_ONLY.get(noun)  # how one comes to be
        return f"; {place} holds no {noun} at all" + (f" ({origin})" if origin else "")
    ids = [str(r[0]) for r in await db.execute_fetchall(
        f"SELECT DISTINCT id FROM {table}{where} ORDER BY id LIMIT 3", params)]
    more = f" and {count - len(ids)} more" if count > len(ids) else ""
    return f"; {place} holds {', '.join(ids)}{more}"


FROM_SIF_ONLY = {
    noun: f"one comes from a `{noun.replace(' ', '_')}` record of a sif/1 file: `inspector import FILE --into STORE`"
    for noun in ("candidate", "handoff")
} | {"deletion request": "one is filed with `inspector request-deletion STORE --session S TARGET… --reason R` "
                         "or D in the app, or comes from a `deletion_request` record of a sif/1 file: "
                         "`inspector import FILE --into STORE`"}


# A command's id argument -> (table, noun): what a usage error that left the id out names instead.
ID_ARGUMENTS = {"handoff": ("handoffs", "handoff"), "candidate": ("candidates", "candidate"),
                "request": ("deletion_requests", "deletion request"), "action": ("actions", "action"),
                "stub": ("stubs", "stub")}


async def held(db: aiosqlite.Connection, argument: str) -> str:
    """"holds h-ds, h-good, h-tools and 1 more" (after the store's name) for ``inspector handoff g.db`` run without
    its HANDOFF (click said only "Missing argument 'HANDOFF'"), or that it holds none and where one
    comes from."""
    table, noun = ID_ARGUMENTS[argument]
    return (await _which_exist(db, table, noun, None)).removeprefix("; the store ")
