"""``export -o`` never writes over a store, and a missing folder is said as what it is.

``inspector export STORE -o STORE`` replaced the store with sif/1 text and printed "wrote …"
(exit 0); ``verify`` then said it was not a store at all. ``-o nodir/x.sif`` said "the store
could not be read or written (No such file or directory)" of a store that was fine.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "sample_sessions" / "01_export_timeout.jsonl"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("export-output") / "s.db"
    asyncio.run(import_file(SAMPLE, store, actor="tester"))
    return store


def _store(made: Path, tmp_path: Path) -> Path:
    store = tmp_path / "s.db"
    shutil.copy(made, store)
    return store


@pytest.mark.parametrize("original", [False, True], ids=["sif", "original"])
def test_an_export_over_the_store_itself_is_refused_and_the_store_stays(made: Path, tmp_path: Path,
                                                                        original: bool) -> None:
    store = _store(made, tmp_path)
    before = store.read_bytes()
    session = json.loads(CliRunner().invoke(cli, ["sessions", str(store), "--json"]).output)[0]["id"]
    args = ["export", str(store), "-o", str(store), "--json"] + (["--session", session, "--original"] if original else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 3
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "bad_output" and "is a database" in error["message"]
    assert store.read_bytes() == before
    assert CliRunner().invoke(cli, ["verify", str(store)]).exit_code == 0


def test_another_store_is_not_overwritten_either(made: Path, tmp_path: Path) -> None:
    store = _store(made, tmp_path)
    other = tmp_path / "other.db"
    shutil.copy(made, other)
    result = CliRunner().invoke(cli, ["export", str(store), "-o", str(other)])
    assert result.exit_code == 3 and other.read_bytes() == made.read_bytes()


def test_a_missing_folder_names_the_folder_not_the_store(made: Path, tmp_path: Path) -> None:
    store = _store(made, tmp_path)
    result = CliRunner().invoke(cli, ["export", str(store), "-o", str(tmp_path / "nodir" / "x.sif")])
    assert result.exit_code == 3
    assert "folder" in result.output and "nodir does not exist" in result.output and "store" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.db"]  # nothing written


def test_an_export_to_a_new_file_still_writes_it(made: Path, tmp_path: Path) -> None:
    store = _store(made, tmp_path)
    out = tmp_path / "out.sif"
    result = CliRunner().invoke(cli, ["export", str(store), "-o", str(out)])
    assert result.exit_code == 0 and out.read_text(encoding="utf-8").startswith('{"type":"header","format":"sif/1"}')
    assert not list(tmp_path.glob("*.partial"))
