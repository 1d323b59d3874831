"""``inspector migrate``: an exact copy of a store, resumable, refusing a target that holds anything else."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import migrating
from inspector.services.candidates import accept
from inspector.services.exporting import export_sif
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from tests.conftest import SAMPLES, event_record, file_sha, session_record, write_sif

SAME_DOCUMENTS = (("sessions", "--json"), ("check", "--json"), ("verify", "--json"), ("ledger", "--json"),
                  ("candidates", "--session", "s-export", "--json"))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output + (result.stderr or "")
    return result.exit_code, result.stdout, result.stderr


async def _export(store: Path, out: Path) -> bytes:
    async with await open_store(store) as opened:
        await export_sif(opened, out)
    return out.read_bytes()


def test_a_migrated_store_gives_the_same_documents_and_export(sample_store: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    code, out, _ = run("migrate", str(sample_store), "--to", str(target), "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] and report["heads_match"] and report["created_target"]
    assert report["source_head"] == report["target_head"] and report["source_head"]["seq"] > 0
    assert report["verify"]["ok"] and report["verify"]["entries"] == report["source_head"]["seq"]
    assert all(c["copied"] == c["source"] and c["already"] == 0 for c in report["tables"].values())
    assert report["tables"]["events"]["source"] > 0 and report["material_chunks"]["copied"] > 0
    for args in SAME_DOCUMENTS:
        a, b = run(args[0], str(sample_store), *args[1:]), run(args[0], str(target), *args[1:])
        if args[0] == "verify":  # the head remembered is per store location (migrate verified the target)
            a, b = ((code, {k: v for k, v in json.loads(text).items() if k not in ("remembered_head", "relies_on")},
                     err)
                    for code, text, err in (a, b))
        assert a == b, args
    assert run("export", str(sample_store), "-o", str(tmp_path / "a.sif"))[0] == 0
    assert run("export", str(target), "-o", str(tmp_path / "b.sif"))[0] == 0
    assert file_sha(tmp_path / "a.sif") == file_sha(tmp_path / "b.sif")


def test_search_finds_the_same_hits_in_the_copy(sample_store: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    assert run("migrate", str(sample_store), "--to", str(target))[0] == 0
    for query in ("超时", "x", "exit 0", "批"):  # two, one Latin, several, one Chinese character(s)
        a = run("search", str(sample_store), "--session", "s-export", query, "--json")
        assert a[0] == 0 and json.loads(a[1])["hits"], query
        assert a == run("search", str(target), "--session", "s-export", query, "--json"), query


def test_running_it_again_copies_nothing_and_changes_nothing(sample_store: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    first = json.loads(run("migrate", str(sample_store), "--to", str(target), "--json")[1])
    before = run("ledger", str(target), "--json")
    code, out, _ = run("migrate", str(sample_store), "--to", str(target), "--json")
    again = json.loads(out)
    assert code == 0 and again["ok"] and not again["created_target"]
    assert all(c["copied"] == 0 and c["already"] == c["source"] for c in again["tables"].values())
    assert again["target_head"] == first["target_head"] and run("ledger", str(target), "--json") == before


async def test_a_source_that_grew_is_carried_on_from_where_the_copy_stopped(sample_store: Path,
                                                                            tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    await migrating.migrate(sample_store, target)
    await import_file(write_sif(tmp_path / "more.jsonl", [session_record("s-more"), event_record(1, "s-more"),
                                                          event_record(2, "s-more")]), sample_store, actor="t")
    report = await migrating.migrate(sample_store, target)
    assert report.ok and report.source_head["seq"] == report.target_head["seq"]
    assert {n: c.copied for n, c in report.tables.items() if c.copied} == {"sessions": 1, "events": 2, "ledger": 1}
    assert await _export(sample_store, tmp_path / "a.sif") == await _export(target, tmp_path / "b.sif")


class Interrupted(Exception):
    pass


async def test_a_copy_cut_short_is_completed_by_running_it_again(sample_store: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    async with await open_store(target, create=True):  # an empty store someone made: kept when the copy breaks
        pass

    def stop_in_materials(table: str, done: int, total: int) -> None:
        if table == "materials" and done >= 2:
            raise Interrupted

    with pytest.raises(Interrupted):
        await migrating.migrate(sample_store, target, progress=stop_in_materials)
    report = await migrating.migrate(sample_store, target)
    assert report.ok and report.tables["events"].copied == 0 and report.tables["events"].already > 0
    assert report.tables["materials"].already == 2 and report.tables["materials"].copied > 0
    assert await _export(sample_store, tmp_path / "a.sif") == await _export(target, tmp_path / "b.sif")


def test_a_target_whose_rows_differ_is_refused_and_left_as_it_was(sample_store: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"

    async def copy_then_accept_in_the_source() -> None:
        await migrating.migrate(sample_store, target)
        async with await open_store(sample_store) as opened:  # a candidate already copied changes in the source
            assert (await accept(opened, "cand-good", actor="rev")).as_dict()["status"] == "accepted"

    asyncio.run(copy_then_accept_in_the_source())
    sha = file_sha(target)
    code, out, err = run("migrate", str(sample_store), "--to", str(target), "--json")
    assert code == 3 and json.loads(out)["error"]["code"] == "target_differs", (out, err)
    assert "nothing was written" in err and err.count("\n") == 1
    assert file_sha(target) == sha


def test_a_target_holding_another_store_is_refused(sample_store: Path, tmp_path: Path) -> None:
    target = tmp_path / "other.db"
    assert run("import", str(SAMPLES["01_export_timeout"]), "--into", str(target))[0] == 0
    sha = file_sha(target)
    code, out, _ = run("migrate", str(sample_store), "--to", str(target), "--json")
    assert code == 3 and json.loads(out)["error"]["code"] == "different_store"
    assert file_sha(target) == sha


@pytest.mark.parametrize("make", ["missing", "text", "empty"])
def test_a_source_that_is_not_a_store_is_bad_input_and_creates_nothing(make: str, tmp_path: Path) -> None:
    source, target = tmp_path / "src.db", tmp_path / "copy.db"
    if make == "text":
        source.write_text("not a store\n")
    elif make == "empty":
        source.touch()
    code, out, err = run("migrate", str(source), "--to", str(target))
    assert code == 3 and err.startswith("error: ") and err.count("\n") == 1 and out == ""
    assert not target.exists() and not Path(f"{target}-wal").exists()


def test_the_same_store_as_source_and_target_is_refused(sample_store: Path) -> None:
    code, _, err = run("migrate", str(sample_store), "--to", str(sample_store.parent / "." / sample_store.name))
    assert code == 3 and "both the source and the target" in err


def test_a_large_material_is_copied_chunk_by_chunk(tmp_path: Path) -> None:
    source, target = tmp_path / "big.db", tmp_path / "copy.db"
    text = "".join(f"line {n} 日志 ok\n" for n in range(400_000))  # ~7 MB: over 100 chunks, past the index cap
    record = {"type": "material", "session": "s1", "id": "m-big", "encoding": "utf-8", "media_type": "text/plain",
              "content": text, "content_hash": migrating_hash(text)}
    assert run("import", str(write_sif(tmp_path / "big.jsonl", [session_record(), event_record(1), record])),
               "--into", str(source))[0] == 0
    code, out, _ = run("migrate", str(source), "--to", str(target), "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] and report["material_chunks"]["copied"] > 100
    assert report["material_chunks"]["bytes"] == len(text.encode())
    code, out, _ = run("verify", str(target), "--full", "--json")
    assert code == 0 and json.loads(out)["ok"]
    assert run("export", str(source), "-o", str(tmp_path / "a.sif"))[0] == 0
    assert run("export", str(target), "-o", str(tmp_path / "b.sif"))[0] == 0
    assert file_sha(tmp_path / "a.sif") == file_sha(tmp_path / "b.sif")


def migrating_hash(text: str) -> str:
    from inspector.domain.canonical import content_hash

    return content_hash(text.encode())
