"""verify's schema check on PostgreSQL: the store's triggers, functions, indexes, views, rules
and row-level policies are the format's.

SQLite's check (verify_layout.check_guards) compares ``sqlite_master`` with a fresh schema;
PostgreSQL's returned without looking, so on a server store a person with the table owner's
rights could drop the append-only guards (or ``ALTER TABLE … DISABLE TRIGGER``), neutralise them
with ``CREATE OR REPLACE FUNCTION ci_refuse()``, or replace the schema's own ``json_extract``
— which every SQL read of a JSON column goes through (``actions``' reconciliations, ``history``,
the timeline's filters) — to return forged values while every row, hash and seal stays as it
was: verify said ok. The expected objects are read from the migrations' own SQL
(store/pg/schema.py), so a later format is compared with what it creates.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from inspector.store.connection import Store
from inspector.store.pg.schema import PG_MIGRATIONS

Fail = Callable[[dict[str, Any]], None]

GUARDS = ("ledger_no_update", "ledger_no_delete", "ledger_no_truncate", "events_no_update", "chunks_no_update")
_FUNCTION = re.compile(r"CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(\w+)\s*\(.*?\bAS\s+\$\$(.*?)\$\$", re.S | re.I)
_TRIGGER = re.compile(r"CREATE\s+TRIGGER\s+(\w+)\s+.*?\bON\s+(\w+)\s.*?EXECUTE\s+FUNCTION\s+(\w+)", re.S | re.I)
_INDEX = re.compile(r"CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.I)
_DROPPED = re.compile(r"DROP\s+INDEX\s+(?:IF\s+EXISTS\s+)?(\w+)", re.I)


@functools.cache
def expected() -> tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str, str]], frozenset[str]]:
    """(function name and body, trigger name / table / function, index names) the migrations make."""
    functions: dict[tuple[str, str], str] = {}
    triggers: set[tuple[str, str, str]] = set()
    indexes: set[str] = set()
    for _, script in (PG_MIGRATIONS[v] for v in sorted(PG_MIGRATIONS)):
        for name, body in _FUNCTION.findall(script):
            functions[(name, body)] = body
        triggers |= {(t, table, fn) for t, table, fn in _TRIGGER.findall(script)}
        indexes |= set(_INDEX.findall(script))
        indexes -= set(_DROPPED.findall(script))
    return frozenset(functions), frozenset(triggers), frozenset(indexes)


async def check_pg_schema(store: Store, fail: Fail) -> None:
    want_functions, want_triggers, want_indexes = expected()
    q = store.db.execute_fetchall
    triggers = {(str(t), str(rel), str(fn)): str(enabled) for t, rel, fn, enabled in await q(
        "SELECT t.tgname, c.relname, p.proname, t.tgenabled::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
        "JOIN pg_proc p ON p.oid = t.tgfoid WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace")}
    functions = {(str(n), str(src)) for n, src in await q(
        "SELECT p.proname, p.prosrc FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace AND NOT EXISTS "
        "(SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')")}
    indexes = {str(n) for (n,) in await q(
        "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = "
        "current_schema()::regnamespace AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)")}
    others = [f"{kind} {name}" for kind, name in await q(
        "SELECT 'view', viewname FROM pg_views WHERE schemaname = current_schema() UNION ALL "
        "SELECT 'rule', rulename FROM pg_rules WHERE schemaname = current_schema() UNION ALL "
        "SELECT 'policy', policyname FROM pg_policies WHERE schemaname = current_schema() UNION ALL "
        "SELECT 'row security on', relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace "
        "AND relrowsecurity")]
    gone = sorted(t for t, rel, fn in want_triggers if t in GUARDS and triggers.get((t, rel, fn), "D") == "D")
    if gone:
        fail({"where": "schema", "code": "guards_removed",
              "message": f"the append-only guards {', '.join(gone)} were removed or disabled: rows they protect may "
                         "have been edited in place"})
    changed = sorted({f"function {n}" for n, _ in functions ^ want_functions})
    added = sorted([f"trigger {t}" for t, *_ in set(triggers) - want_triggers] +
                   [f"index {n}" for n in indexes - want_indexes] + others)
    missing = sorted([f"trigger {t}" for t, rel, fn in want_triggers if t not in GUARDS and (t, rel, fn) not in triggers]
                     + [f"index {n}" for n in want_indexes - indexes])
    parts = [f"{label}: {', '.join(items[:6])}" for label, items in (("altered", changed), ("added", added),
                                                                      ("removed", missing)) if items]
    if parts:
        fail({"where": "schema", "code": "schema_changed", "objects": changed + added,  # what a deletion refuses over
              "message": "the store's schema was changed outside the inspector (" + "; ".join(parts) + "): a changed "
                         "function, trigger, rule or policy can alter what acts write or reads return"})
