"""Expanding stubs: exact bytes from multi-chunk materials, honest edges, every refusal."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.canonical import content_hash
from inspector.services.expanding import expand
from inspector.services.importing import import_file
from inspector.services.sessions import session_ledger
from inspector.store.connection import open_store
from inspector.store.schema import CHUNK_SIZE
from tests.conftest import file_sha, session_record, write_sif

# ~200 KB: four chunks of 64 KiB. Each line mixes ASCII, 3-byte CJK and a 4-byte emoji.
LINE = "{n:05d} 🚀 部署节点 ok\n"
TEXT = "".join(LINE.format(n=n) for n in range(8000))
DATA = TEXT.encode("utf-8")
H = content_hash(DATA)


def stub(id_: str, **more: object) -> dict:
    return {"type": "stub", "session": "s1", "id": id_, "material": "res:log", "content_hash": H,
            "source_version": "v1", "read_slice": [0, 4096], "retrieved_at": "2025-05-01T00:00:00Z",
            "disclosure_scope": "team", "outline": "log", **more}


async def _build(folder: Path) -> Path:
    records = [
        session_record(),
        {"type": "material", "session": "s1", "id": "res:log", "source_version": "v1", "disclosure_scope": "team",
         "retrieved_at": "2025-05-01T00:00:00Z", "media_type": "text/plain", "content": TEXT},
        {"type": "material", "session": "s1", "id": "res:secret", "source_version": "v1", "disclosure_scope": "private",
         "content": "secret"},
        stub("s-ok"),
        stub("s-private", material="res:secret", content_hash=content_hash(b"secret"), read_slice=[0, 6],
             disclosure_scope="private"),
        stub("s-gone", material="res:missing"),
        stub("s-old", source_version="v0"),
        stub("s-otherhash", content_hash=content_hash(b"something else")),
    ]
    path = folder / "s.db"
    await import_file(write_sif(folder / "m.jsonl", records), path, actor="t")
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    return path


@pytest.fixture(scope="module")
def _master(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The stubs and materials imported once for this file, in their own event loop; checked
    unchanged at the end (expanding appends to the ledger: no test may see another's entry)."""
    with ThreadPoolExecutor(1) as pool:
        path = pool.submit(asyncio.run, _build(tmp_path_factory.mktemp("expand-master"))).result()
    digest = file_sha(path)
    yield path
    assert file_sha(path) == digest


@pytest.fixture
def store(tmp_path: Path, _master: Path) -> Path:
    """A byte copy of the file's one import: each test expands (and so writes) its own."""
    path = tmp_path / "s.db"
    shutil.copyfile(_master, path)
    return path


async def _expand(store: Path, stub_id: str, **kw: object):  # type: ignore[no-untyped-def]
    async with await open_store(store) as opened:
        return await expand(opened, stub_id, actor="rita", **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("start", [0, CHUNK_SIZE - 2000, 3 * CHUNK_SIZE + 17, len(DATA) - 4096])
async def test_ranges_anywhere_return_exactly_the_stored_bytes(store: Path, start: int) -> None:
    end = start + 4096
    result = await _expand(store, "s-ok", byte_range=(start, end))
    assert result.ok and result.verified
    assert result.cut_head + result.text.encode("utf-8") + result.cut_tail == DATA[start:end]
    assert result.chunks_read == len({start // CHUNK_SIZE, (end - 1) // CHUNK_SIZE})


async def test_cut_emoji_and_cjk_bytes_are_reported_with_snaps(store: Path) -> None:
    emoji = DATA.index("🚀".encode())
    cjk = DATA.index("部".encode())
    result = await _expand(store, "s-ok", byte_range=(emoji + 2, cjk + 1))
    assert result.cut_head.hex() == "9a80" and result.cut_tail.hex() == "e9"
    assert result.snap_wider == (emoji, cjk + 3) and result.snap_narrower == (emoji + 4, cjk)
    assert "\ufffd" not in result.text


async def test_the_stub_read_slice_is_the_default_and_each_expansion_is_ledgered(store: Path) -> None:
    result = await _expand(store, "s-ok")
    assert result.range == (0, 4096) and result.data == DATA[:4096]
    async with await open_store(store) as opened:
        entries = await session_ledger(opened, "s1")
        async with opened.db.execute("SELECT retrieved_at FROM stubs WHERE id = 's-ok'") as cur:
            assert (await cur.fetchone())[0] == "2025-05-01T00:00:00Z"  # expansion time is never written back
    last = entries[-1]
    assert last["kind"] == "expand" and last["actor"] == "rita"
    assert last["payload"] == {"stub": "s-ok", "material": "res:log", "range": [0, 4096], "bytes": 4096,
                               "max_bytes": 65536, "verified": True, "beyond_read_slice": False}


@pytest.mark.parametrize(
    ("stub_id", "kwargs", "code"),
    [
        ("s-private", {}, "scope_denied"),
        ("s-gone", {}, "deleted"),
        ("s-old", {}, "version_mismatch"),
        ("s-otherhash", {}, "hash_mismatch"),
        ("s-ok", {"byte_range": (10, 5)}, "out_of_bounds"),
        ("s-ok", {"byte_range": (len(DATA) - 10, len(DATA) + 1)}, "out_of_bounds"),
        ("s-ok", {"byte_range": (0, 70_000)}, "over_budget"),
        ("s-ok", {"max_bytes": 100}, "over_budget"),
    ],
)
async def test_each_refusal_through_the_service(store: Path, stub_id: str, kwargs: dict, code: str) -> None:
    result = await _expand(store, stub_id, **kwargs)
    assert [r.code for r in result.refusals] == [code]
    assert result.data == b"" and result.refusals[0].message


async def test_private_scope_reads_when_granted(store: Path) -> None:
    result = await _expand(store, "s-private", scopes=("private",))
    assert result.ok and result.text == "secret"


async def test_changed_stored_bytes_are_a_hash_mismatch(store: Path) -> None:
    con = sqlite3.connect(store)
    con.execute("DROP TRIGGER chunks_no_update")
    con.execute("UPDATE material_chunks SET data = zeroblob(length(data)) WHERE idx = 1 AND material_id = "
                "(SELECT material_id FROM materials WHERE id = 'res:log')")
    con.commit()
    con.close()
    assert (await _expand(store, "s-ok")).ok  # chunk 0 untouched: still verified
    result = await _expand(store, "s-ok", byte_range=(CHUNK_SIZE, CHUNK_SIZE + 10))
    assert [r.code for r in result.refusals] == ["hash_mismatch"] and "stored chunk 1 of" in result.refusals[0].message


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["s-private"], "scope_denied"),
        (["s-gone"], "deleted"),
        (["s-old"], "version_mismatch"),
        (["s-otherhash"], "hash_mismatch"),
        (["s-ok", "--range", "9:3"], "out_of_bounds"),
        (["s-ok", "--range", "0:65537"], "over_budget"),
    ],
)
def test_each_refusal_through_the_cli_exits_1(store: Path, args: list[str], code: str) -> None:
    result = CliRunner().invoke(cli, ["expand", str(store), *args, "--json", "--reviewer", "rita"])
    assert result.exit_code == 1
    assert [r["code"] for r in json.loads(result.stdout)["refusals"]] == [code]


def test_cli_expansion_json_shape(store: Path) -> None:
    result = CliRunner().invoke(cli, ["expand", str(store), "s-ok", "--range", "5:20", "--json", "--reviewer", "rita"])
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert set(out) >= {"stub", "material", "range", "bytes", "text", "cut_head_hex", "cut_tail_hex", "snap_wider",
                        "snap_narrower", "verified"}
    assert out["verified"] is True and bytes.fromhex(out["cut_head_hex"]) + out["text"].encode() + bytes.fromhex(
        out["cut_tail_hex"]) == DATA[5:20]


@pytest.mark.parametrize(("args", "exit_code"), [(["s-ok", "--range", "a:b"], 2), (["nope"], 3)])
def test_cli_bad_input(store: Path, args: list[str], exit_code: int) -> None:
    result = CliRunner().invoke(cli, ["expand", str(store), *args, "--reviewer", "rita"])
    assert result.exit_code == exit_code and "Traceback" not in result.output


def test_cli_needs_a_reviewer(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INSPECTOR_REVIEWER", raising=False)
    result = CliRunner().invoke(cli, ["expand", str(store), "s-ok"])
    assert result.exit_code == 2 and "--reviewer" in result.output
