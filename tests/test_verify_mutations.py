"""verify against every kind of edit of every table and column of a realistic store.

The store holds the sample sessions, a real Claude Code transcript followed in two parts and
every kind of act (bench/mutation_stores.py). Every table and column is read from its schema
(bench/mutation_edits.py), so a column a later format adds is edited too: each edit must end
in verify's exit 1 with a stable code naming the table (or the projection a derived table is
rebuilt into), or be one inspector/services/verify_coverage.py declares — and then nothing a
person sees may have changed (export, ledger, sessions, searches, the indexes' contents),
unless the list says verify relies on something else for it (a head kept outside the store).
The stores are built once per test run (tests/built_once.py); each edit is made on a copy.

The edits are split into groups by the table they edit (GROUPS; a table no group names falls
in OTHER, so a table a later format adds is edited too), and each group is its own test: the
~750 verifies, about a minute and a half of CPU, spread over the run's workers instead of
holding one of them (docs/benchmarks.md, "Session 12: the suite"). Each group's test makes
every check on its own edits; together they make them on every edit.
"""

from __future__ import annotations

import fnmatch
import json
import sqlite3
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bench import mutation_edits
from bench.mutation_stores import build, missing
from bench.verify_mutations import run
from inspector.cli.main import cli
from inspector.services import verify_coverage
from inspector.services.verify_report import CODES
from tests.built_once import built_once

REACHED = ("caught", "declared", "relied on", "harmless")  # the edit was made and verify judged it

# The groups of edits, by the table edited (fnmatch patterns): about fifty verifies each.
GROUPS: dict[str, tuple[str, ...]] = {
    "materials": ("materials",), "summaries": ("summaries",), "state_records": ("state_records",),
    "events": ("events",), "stubs": ("stubs",), "sessions": ("sessions",), "ledger": ("ledger",),
    "actions": ("actions",), "handoffs": ("handoffs",), "candidates": ("candidates",),
    "deletion_requests": ("deletion_requests",),
    "word indexes": ("events_fts*", "materials_fts*", "calls_fts*", "reasoning_fts*"),
    "short-query indexes": ("events_grams*", "calls_grams*", "reasoning_grams*"),
    "files": ("file", "wal"),  # the file's bytes, the WAL and -shm, an older copy put back
}
OTHER = "other tables"  # tool_defs, material_chunks, store_meta, search_watermark, and any new table
# Edits an attacker who knows the format makes (a seal and the chain recomputed), whatever the table.
CONSISTENT = ("reseal", "rewrite", "cut the last entry", "append an entry")
CHAIN = "consistent rewrites"
ALL_GROUPS = (*GROUPS, OTHER, CHAIN)


def group_of(table: str, edit: str) -> str:
    if edit.startswith(CONSISTENT):
        return CHAIN
    return next((name for name, patterns in GROUPS.items()
                 if any(fnmatch.fnmatchcase(table, p) for p in patterns)), OTHER)


@pytest.fixture(scope="session")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if missing():
        print(missing())  # the transcript parts are left out; the samples and acts are still edited
    copies = built_once(tmp_path_factory, "mutation-stores", lambda folder: build(
        folder / "stores", light=True, transcript=False).values(), tmp_path_factory.mktemp("mutations") / "stores")
    return {path.stem: path for path in copies}  # samples, acts: built once per run, a copy per process


@pytest.fixture(scope="session")
def edited(stores: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
           ) -> Callable[[str], list[dict[str, Any]]]:
    """``edited(GROUP)``: the results of that group's edits, made once per test process."""
    made: dict[str, list[dict[str, Any]]] = {}

    def results(group: str) -> list[dict[str, Any]]:
        if group not in made:
            made[group] = run(stores, tmp_path_factory.mktemp("mutation-work"), only="acts", brief=True,
                              pick=lambda table, edit: group_of(table, edit) == group)
        return made[group]

    return results


def _line(r: dict[str, Any]) -> str:
    pinned = "" if r["pinned"] else " (never verified here)"
    seen = r.get("extra", {}).get("changed_views")
    return f"{r['table']}.{r['column']}: {r['edit']}{pinned} -> {r['verdict']} {r.get('message', '')[:100]}" + (
        f" changed {seen[:4]}" if seen else "")


@pytest.mark.parametrize("group", ALL_GROUPS)
def test_every_edit_is_caught_or_declared(group: str, stores: dict[str, Path],
                                          edited: Callable[[str], list[dict[str, Any]]]) -> None:
    """Each group's edits: reached verify and judged, every table and column of the group has a
    verdict, a caught edit names its table with a stable code, and (for the consistent rewrites
    and the older copies) the remembered head catches what the chain alone cannot."""
    results = edited(group)
    assert results, f"the group {group!r} made no edit: its tables are gone from the schema"
    bad = [_line(r) for r in results if r["verdict"] not in (*REACHED, "refused", "no-op")]
    assert not bad, f"{len(bad)} of {len(results)} edits were missed:\n" + "\n".join(bad)
    _every_table_and_column_has_a_verdict(stores, results, group)
    _a_caught_edit_has_a_stable_code_naming_its_table(results)
    if group == CHAIN:
        _a_rewrite_with_recomputed_seals_is_caught_by_the_remembered_head(results)
    if group == "files":
        _the_older_copy_is_caught_or_relied_on(results)


def _every_table_and_column_has_a_verdict(stores: dict[str, Path], results: list[dict[str, Any]],
                                          group: str) -> None:
    """Read from the schema, never listed by hand: a new column fails here until an edit of it
    reaches verify (its values all NULL in the store is no excuse: the store is the realistic one)."""
    con = sqlite3.connect(stores["acts"])
    try:
        wanted = {(t, c) for t in mutation_edits.tables(con) if group_of(t, "") == group
                  for c, _, _ in mutation_edits.columns(con, t)}
    finally:
        con.close()
    judged: dict[tuple[str, str], set[str]] = defaultdict(set)
    for r in results:
        judged[(r["table"], r["column"].partition(":")[0])].add(r["verdict"])
    rows_judged = {r["table"] for r in results if r["column"] in ("*", "rowid", "event_id", "material_id", "seq")
                   and r["verdict"] in REACHED}
    unjudged = sorted(f"{t}.{c}" for t, c in wanted if not judged[(t, c)] & set(REACHED))
    assert not unjudged, f"no edit of these reached verify: {unjudged}"
    assert {t for t, _ in wanted} <= rows_judged, sorted({t for t, _ in wanted} - rows_judged)


def test_the_groups_take_every_table_of_the_schema(stores: dict[str, Path]) -> None:
    """Each table is edited by exactly one group's test, and each group names a table there is
    (a group left without tables would make no edit: its test says so, this names it)."""
    con = sqlite3.connect(stores["acts"])
    try:
        names = mutation_edits.tables(con)
    finally:
        con.close()
    unused = [g for g, patterns in GROUPS.items() if g != "files"
              and not any(fnmatch.fnmatchcase(t, p) for t in names for p in patterns)]
    assert not unused, f"these groups name no table of the store: {unused}"


def _a_caught_edit_has_a_stable_code_naming_its_table(results: list[dict[str, Any]]) -> None:
    wrong = []
    for r in results:
        if r["verdict"] != "caught":
            continue
        problems = r.get("extra", {}).get("problems") or [(r["code"], r["where"])]
        if any(code not in CODES for code, _ in problems):
            wrong.append(f"{_line(r)}: codes {problems}")
            continue
        declared = verify_coverage.derived(r["table"], r["column"])
        names = {r["table"], declared.projection if declared else r["table"]}
        if r["table"] in ("file", "wal", "store_meta") or r["edit"].startswith(("reseal", "rewrite", "cut")):
            continue  # the file, the key or the chain as a whole: any place verify names is the place
        if not names & {where for _, where in problems}:
            wrong.append(f"{_line(r)}: reported at {problems}, not {sorted(names)}")
    assert not wrong, "\n".join(wrong)


def _a_rewrite_with_recomputed_seals_is_caught_by_the_remembered_head(results: list[dict[str, Any]]) -> None:
    consistent = [r for r in results if r["edit"].startswith(("reseal", "rewrite", "cut the last")) and r["pinned"]
                  and verify_coverage.derived(r["table"], r["column"]) is None]  # a replayed status: not sealed
    assert consistent and all(r["verdict"] == "caught" for r in consistent), [_line(r) for r in consistent]
    chain = {"remembered_head_differs", "ledger_gap", "ledger_hash_mismatch", "ledger_link_broken"}
    unseen = [_line(r) for r in consistent if not chain & {code for code, _ in r["extra"]["problems"]}]
    assert not unseen, f"caught, but not as a history that differs from the remembered one: {unseen}"


def _the_older_copy_is_caught_or_relied_on(results: list[dict[str, Any]]) -> None:
    older = [r for r in results if r["edit"].startswith("the store replaced by an older copy")]
    assert [r["verdict"] for r in older] == ["caught", "relied on"], [_line(r) for r in older]


def test_the_declared_list_names_what_the_schema_has(stores: dict[str, Path]) -> None:
    con = sqlite3.connect(stores["acts"])
    try:
        names = mutation_edits.tables(con)
        columns = {t: {c for c, _, _ in mutation_edits.columns(con, t)} for t in names}
    finally:
        con.close()
    import fnmatch

    for item in (*verify_coverage.DERIVED, *verify_coverage.NOT_BOUND):
        if item.table.startswith("sqlite_stat"):
            continue  # made by ANALYZE only, which the inspector never runs
        hits = [t for t in names if fnmatch.fnmatchcase(t, item.table)] if item.table != "*" else names
        assert hits, f"the coverage list names {item.table}, which no store has"
        column = item.column.partition(":")[0]
        if column not in ("*", "rowid"):
            assert any(column in columns[t] for t in hits), f"{item.table}.{column} is not a column"


def test_verify_says_what_it_relies_on(stores: dict[str, Path], tmp_path: Path) -> None:
    first = json.loads(CliRunner().invoke(cli, ["verify", str(stores["acts"]), "--json"]).stdout)
    assert first["ok"] and verify_coverage.RELIES_ON_UNKEPT[0] in first["relies_on"]
    assert {d["table"] for d in first["not_bound"]} >= {"store_meta", "material_chunks"}
    again = json.loads(CliRunner().invoke(cli, ["verify", str(stores["acts"]), "--json"]).stdout)
    assert again["remembered_head"] and verify_coverage.RELIES_ON_UNKEPT[0] not in again["relies_on"]
    assert verify_coverage.RELIES_ON_ALWAYS[0] in again["relies_on"]


def _edited_copy(stores: dict[str, Path], tmp_path: Path, *statements: str) -> Path:
    copy = tmp_path / "edited.db"
    copy.write_bytes(stores["acts"].read_bytes())
    con = sqlite3.connect(copy, isolation_level=None)
    con.execute("BEGIN")
    for name, _ in con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall():
        con.execute(f"DROP TRIGGER {name}")  # not put back: the schema check names that too
    for statement in statements:
        con.execute(statement)
    con.execute("COMMIT")
    con.close()
    return copy


def test_the_text_names_each_break_on_one_line_with_its_code(stores: dict[str, Path], tmp_path: Path) -> None:
    store = _edited_copy(stores, tmp_path, "UPDATE events SET content = '可以修改生产库' WHERE session = 's-export' "
                         "AND seq = 3", "INSERT INTO store_meta (key, value) VALUES ('note', 'x')")
    result = CliRunner().invoke(cli, ["verify", str(store)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("BROKEN: ") and "'s-export', seq 3" in lines[0] and lines[0].endswith(
        "[row_digest_mismatch]"), lines[0]
    problems = [line for line in lines if line.startswith(("BROKEN: ", "  - "))]
    assert all(line.endswith("]") and line.rsplit("[", 1)[1][:-1] in CODES for line in problems), problems
    assert any("[store_meta_differs]" in line for line in problems) and any("[guards_removed]" in line
                                                                           for line in problems), problems
    doc = json.loads(CliRunner().invoke(cli, ["verify", str(store), "--json"]).stdout)
    assert doc["ok"] is False and all(p["code"] in CODES for p in doc["problems"])


def test_a_damaged_key_is_a_damaged_store_not_a_traceback(stores: dict[str, Path], tmp_path: Path) -> None:
    store = _edited_copy(stores, tmp_path, "UPDATE store_meta SET value = created_at_value.v FROM (SELECT value AS v "
                         "FROM store_meta WHERE key = 'created_at') AS created_at_value WHERE key = 'digest_key'")
    result = CliRunner().invoke(cli, ["verify", str(store), "--json"])
    assert result.exit_code == 1 and json.loads(result.stdout)["first_break"]["code"] == "damaged_store"


@pytest.mark.parametrize("kind", ["missing", "not sqlite", "folder"])
def test_bad_input_is_exit_3_and_creates_nothing(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "store.db"
    if kind == "not sqlite":
        target.write_text("not a store\n", encoding="utf-8")
    elif kind == "folder":
        target.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    for extra in ([], ["--json"]):
        result = CliRunner().invoke(cli, ["verify", str(target), *extra])
        assert result.exit_code == 3 and "Traceback" not in result.output, result.output
        assert len(result.stderr.strip().splitlines()) == 1 if not extra else json.loads(result.stdout)["error"]
    assert sorted(p.name for p in tmp_path.iterdir()) == before
