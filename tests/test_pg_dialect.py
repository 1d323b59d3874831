"""The services' SQLite SQL said in PostgreSQL's dialect: each rewrite, and what is left alone."""

from __future__ import annotations

import pytest

from inspector.store.location import StoreUrl, is_url, store_target
from inspector.store.pg.dialect import UntranslatableSql, returning_key, translate


@pytest.mark.parametrize(("sqlite", "postgresql"), [
    ("SELECT a FROM t WHERE b = ? AND c > ?", "SELECT a FROM t WHERE b = $1 AND c > $2"),
    ("SELECT '?' , ? FROM t WHERE x = 'it''s ?'", "SELECT '?' , $1 FROM t WHERE x = 'it''s ?'"),
    ("INSERT OR IGNORE INTO t (a) VALUES (?)", "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING"),
    ("SELECT IFNULL(at, ''), ifnull(x, 0) FROM e", "SELECT COALESCE(at, ''), COALESCE(x, 0) FROM e"),
    ("SELECT 1 WHERE instr(e.extra, '\"continuation\"') > 0", "SELECT 1 WHERE strpos(e.extra, '\"continuation\"') > 0"),
    ("SELECT substr(content, 1, 40) || char(10) || substr(content, -300)",
     "SELECT substr(content, 1, 40) || chr(10) || right(content, 300)"),
    ("SELECT IFNULL(MIN(seq), 1 << 62)", f"SELECT COALESCE(MIN(seq), {1 << 62})"),
    ("x = 1 OR content GLOB 'Exit code [1-9]*'", "x = 1 OR content ~ '^Exit code [1-9]'"),
    ("a GLOB 'ab?c'", "a ~ '^ab.c$'"),
    ("WHERE extra LIKE '%compact%'", "WHERE extra ILIKE '%compact%'"),
    ("HAVING NOT (MAX(kind = 'tool_call') AND MAX(kind = 'tool_result'))",
     "HAVING NOT (bool_or(kind = 'tool_call') AND bool_or(kind = 'tool_result'))"),
    ("SELECT MAX(json_extract(covers, '$[1]')) FROM s", "SELECT MAX((json_extract(covers, '$[1]'))::numeric) FROM s"),
    ("json_extract(extra, '$.is_error') = 1", "json_extract(extra, '$.is_error') = '1'"),
    ("FROM events e, json_each(e.extra, '$.continuation') j WHERE", "FROM events e, ci_json_each(e.extra, '$.continuation') AS j(value) WHERE"),
    ("SELECT CAST(payload AS BLOB) FROM ledger", "SELECT convert_to(payload, 'UTF8') FROM ledger"),
    ("UPDATE m SET chunk_hashes = x'' WHERE id = ?", "UPDATE m SET chunk_hashes = '\\x'::bytea WHERE id = $1"),
    ("PRAGMA defer_foreign_keys = ON", "SET CONSTRAINTS ALL DEFERRED"),
    ("PRAGMA wal_checkpoint(TRUNCATE)", "SELECT 0"),
    ("SAVEPOINT bulk", "SAVEPOINT bulk"),
    ("ROLLBACK TO bulk", "ROLLBACK TO bulk"),
])
def test_each_rewrite(sqlite: str, postgresql: str) -> None:
    assert translate(sqlite) == postgresql


def test_what_has_no_faithful_form_is_refused_loudly() -> None:
    with pytest.raises(UntranslatableSql):
        translate("PRAGMA integrity_check")
    with pytest.raises(UntranslatableSql):
        translate("INSERT OR REPLACE INTO t VALUES (1)")


def test_inserts_that_need_their_generated_key_return_it() -> None:
    assert returning_key("INSERT INTO materials (session) VALUES (?)") == "material_id"
    assert returning_key("INSERT INTO ledger (seq) VALUES (?)") is None


def test_store_urls_are_kept_whole_and_shown_without_password() -> None:
    url = store_target("postgresql://lin:secret@db.example:5433/reviews")
    assert isinstance(url, StoreUrl) and is_url(url) and url.url.endswith("//lin:secret@db.example:5433/reviews")
    assert str(url) == "postgresql://lin@db.example:5433/reviews" and "secret" not in repr(url)
    assert url.name == "reviews@db.example" and url.problem is None
    assert not is_url("store.db") and not is_url("postgresql-notes.db")
    assert StoreUrl("postgresql://lin@db.example:5433/").problem == "names no database"
    assert StoreUrl("postgresql://lin@db.example:x/r").problem == "has a port that is not a number"
