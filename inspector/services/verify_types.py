"""verify's check that every column holds the kind of value the inspector writes there.

SQLite stores a value with its own type, whatever the column declares: ``UPDATE events SET
content = CAST(content AS BLOB)`` keeps every byte and changes only the type. Each reader
then sees something else — Python gets ``bytes`` where it expects ``str`` (verify itself ended
in a traceback computing a row digest: no code, no sentence), SQL's JSON functions refuse a
BLOB (or, from SQLite 3.45, read it as binary JSON), and a ledger payload stored as a BLOB
passed verify whole (its JSON parses the same) while ``actions``'s SQL could no longer read it.
So, before anything reads the rows, each column declared TEXT, INTEGER or BLOB is checked to
hold that type or NULL (the NOT NULL constraints say where NULL cannot be); a table whose
columns declare no type (the FTS5 tables' own bookkeeping) is the search index checks' to judge.

Only the format's own tables are read, with their names quoted as SQL quotes them: a table
someone added is the schema check's to name ("added: table w"), and a name holding a double
quote made this check's own statement fail, which verify reported as a store SQLite "cannot
read past this point" — restore from a copy — for a store whose every row was intact (review-14).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspector.domain.plurals import counted
from inspector.store.connection import Store
from inspector.store.schema_expected import expected_schema

Fail = Callable[[dict[str, Any]], None]

_KIND = {"TEXT": "text", "INTEGER": "integer", "BLOB": "blob"}


async def check_types(store: Store, fail: Fail) -> bool:
    """True when some column holds another type (each reported as ``column_type_differs``):
    the row checks after it would read values of the wrong type, so verify stops there."""
    if store.dialect == "postgresql":  # its columns refuse a value of another type
        return False
    tables = await store.db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
    ours = {name for kind, name in expected_schema() if kind == "table"}
    found = False
    for (table,) in tables:
        if table not in ours:
            continue
        columns = [(str(name), _KIND[str(declared).upper()]) for name, declared in await store.db.execute_fetchall(
            "SELECT name, type FROM pragma_table_info(?)", (table,)) if str(declared).upper() in _KIND]
        if not columns:
            continue
        counts = ", ".join(f"SUM(typeof({_quoted(name)}) NOT IN ('{kind}', 'null'))" for name, kind in columns)
        rows = await store.db.execute_fetchall(f"SELECT {counts} FROM {_quoted(table)}")
        for (name, kind), wrong in zip(columns, rows[0], strict=True):
            if wrong:
                found = True
                fail({"where": table, "column": name, "code": "column_type_differs",
                      "message": f"{counted(int(wrong), 'row')} of {table}.{name} {'holds' if wrong == 1 else 'hold'} a value that is not {kind}, the type the "
                                 "inspector writes there: the value was rewritten outside the inspector (the same "
                                 "bytes under another type read differently in Python and in SQL)"})
    return found


def _quoted(name: str) -> str:
    """An SQL identifier as SQL quotes it (a double quote inside doubled)."""
    return '"' + name.replace('"', '""') + '"'
