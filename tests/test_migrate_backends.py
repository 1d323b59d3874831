"""Moving a store between SQLite and PostgreSQL: ``migrate`` both ways, and sif/1 export/import
across backends, give the same documents, the same ledger head and the same digests.

Documents are compared whole: none of ``sessions --json``, ``check --json``, ``verify --json``
names the store's location, so nothing is removed before comparing (the ``integrity`` field
of verify is asserted separately: it names the backend's own page check).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.candidates import accept
from inspector.services.demo import ensure_demo_store
from inspector.store.connection import open_store
from inspector.store.location import store_target
from tests.conftest import PgDatabases, file_sha

DOCUMENTS = (("sessions", "--json"), ("check", "--json"), ("verify", "--json"), ("ledger", "--json"),
             ("candidates", "--session", "s-export", "--json"), ("search", "--session", "s-export", "超时", "--json"),
             ("search", "--session", "s-export", "批", "--json"),
             # a call's input (run_export(batch=500)): the same hits, matched in the same text, on both backends
             ("search", "--session", "s-export", "500", "--json"), ("search", "--session", "s-export", "50", "--json"))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output + (result.stderr or "")
    return result.exit_code, result.stdout, result.stderr


def documents(store: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for args in DOCUMENTS:
        code, text, err = run(args[0], store, *args[1:])
        doc = json.loads(text)
        if args[0] == "verify":
            assert doc["ok"], doc
            doc.pop("integrity")  # quick_check / integrity_check vs the server's own: named per backend
            doc.pop("not_checked")  # what each backend's index check skips: said per backend
            doc.pop("remembered_head")  # kept per store location on this machine
            doc.pop("relies_on")  # what a run relies on follows whether a head is remembered
        out[" ".join(args)] = (code, doc)
    return out


@pytest.fixture
def pg_empty(pg_databases: PgDatabases) -> str:
    return pg_databases.create("migrate")


def test_the_demo_store_migrated_to_postgresql_gives_the_same_documents(pg_empty: str, tmp_path: Path) -> None:
    demo = str(asyncio.run(ensure_demo_store()))
    code, out, _ = run("migrate", demo, "--to", pg_empty, "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] and report["heads_match"], report
    assert report["target"] == pg_empty and report["verify"]["ok"]
    assert documents(pg_empty) == documents(demo)
    assert json.loads(run("verify", pg_empty, "--json")[1])["head"] == json.loads(run("verify", demo, "--json")[1])["head"]

    back = tmp_path / "back.db"  # and back again: PostgreSQL -> SQLite, the same store
    code, out, _ = run("migrate", pg_empty, "--to", str(back), "--json")
    assert code == 0 and json.loads(out)["ok"]
    assert documents(str(back)) == documents(demo)
    run("export", demo, "-o", str(tmp_path / "a.sif"))
    run("export", str(back), "-o", str(tmp_path / "b.sif"))
    assert file_sha(tmp_path / "a.sif") == file_sha(tmp_path / "b.sif")


def test_migrating_to_postgresql_again_copies_nothing(sample_store: Path, pg_empty: str) -> None:
    assert run("migrate", str(sample_store), "--to", pg_empty)[0] == 0
    code, out, _ = run("migrate", str(sample_store), "--to", pg_empty, "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] and not any(c["copied"] for c in report["tables"].values())


def test_a_postgresql_target_that_differs_is_refused_and_unchanged(sample_store: Path, pg_empty: str) -> None:
    assert run("migrate", str(sample_store), "--to", pg_empty)[0] == 0

    async def accept_in_target() -> None:
        async with await open_store(store_target(pg_empty)) as opened:
            await accept(opened, "cand-good", actor="bo")

    asyncio.run(accept_in_target())
    before = run("ledger", pg_empty, "--json")
    code, out, err = run("migrate", str(sample_store), "--to", pg_empty, "--json")
    assert code == 3 and json.loads(out)["error"]["code"] == "target_differs" and "nothing was written" in err
    assert run("ledger", pg_empty, "--json") == before


def test_an_unreachable_server_is_bad_input_and_writes_nothing(sample_store: Path, tmp_path: Path) -> None:
    sha = file_sha(sample_store)
    code, out, err = run("migrate", str(sample_store), "--to", "postgresql://nobody@127.0.0.1:1/none")
    assert code == 3 and out == "" and err.startswith("error: ") and err.count("\n") == 1
    assert file_sha(sample_store) == sha
    target = tmp_path / "copy.db"
    code, _, err = run("migrate", "postgresql://nobody:secret@127.0.0.1:1/none", "--to", str(target))
    assert code == 3 and "secret" not in err and not target.exists()


@pytest.mark.parametrize("direction", ["postgresql-to-sqlite", "sqlite-to-postgresql"])
def test_export_and_import_carry_a_store_across_backends(direction: str, sample_store: Path, pg_empty: str,
                                                         pg_databases: PgDatabases, tmp_path: Path) -> None:
    if direction == "postgresql-to-sqlite":
        assert run("migrate", str(sample_store), "--to", pg_empty)[0] == 0
        source, into = pg_empty, str(tmp_path / "imported.db")
    else:
        source, into = str(sample_store), pg_databases.create("imported")
    assert run("export", source, "-o", str(tmp_path / "out.sif"))[0] == 0
    code, out, _ = run("import", str(tmp_path / "out.sif"), "--into", into, "--json")
    assert code == 0 and json.loads(out)["events"] > 0
    assert run("export", into, "-o", str(tmp_path / "again.sif"))[0] == 0
    assert file_sha(tmp_path / "out.sif") == file_sha(tmp_path / "again.sif")  # the same records, same digests
    code, out, _ = run("verify", into, "--json")
    assert code == 0 and json.loads(out)["ok"]
