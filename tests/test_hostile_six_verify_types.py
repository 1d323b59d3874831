"""verify against a value stored under another type (hostile review six).

SQLite keeps each value's own type, whatever the column declares, so ``CAST(x AS BLOB)``
rewrites a text column with the same bytes under another type. Before: verify ended in a
traceback for a BLOB in events.content / extra / at, sessions.title, state_records.value or
summaries.text (``TypeError: Object of type bytes is not JSON serializable``, exit 1 with no
code or sentence), and said ok (exit 0) to a ledger payload stored as a BLOB — whose JSON
Python still parses, while SQL's JSON functions refuse it. Now: ``column_type_differs``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.backend_sql import run_sql

EDITS = {
    "events.content": "UPDATE events SET content = CAST(content AS BLOB) WHERE event_id = "
                      "(SELECT MIN(event_id) FROM events WHERE content IS NOT NULL)",
    "events.extra": "UPDATE events SET extra = CAST(extra AS BLOB) WHERE event_id = (SELECT MIN(event_id) FROM events)",
    "sessions.title": "UPDATE sessions SET title = CAST(title AS BLOB) WHERE rowid = (SELECT MIN(rowid) FROM sessions)",
    "state_records.value": "UPDATE state_records SET value = CAST(value AS BLOB) WHERE rowid = "
                           "(SELECT MIN(rowid) FROM state_records)",
    "ledger.payload": "UPDATE ledger SET payload = CAST(payload AS BLOB) WHERE seq = 2",
    "material_chunks.data": "UPDATE material_chunks SET data = CAST(data AS TEXT) WHERE rowid = "
                            "(SELECT MIN(rowid) FROM material_chunks)",
}


def _verify(store: Path) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(cli, ["verify", str(store), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("column", sorted(EDITS))
def test_a_value_stored_under_another_type_is_a_break(sample_store: Path, column: str) -> None:
    assert _verify(sample_store)[0] == 0  # unchanged: ok
    run_sql(sample_store, EDITS[column], guards_off=True)
    code, doc = _verify(sample_store)
    table, name = column.split(".")
    assert code == 1, doc
    assert {"where": table, "column": name, "code": "column_type_differs"}.items() <= doc["first_break"].items(), doc
