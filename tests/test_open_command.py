"""Where ``inspector FILE`` keeps its store."""

from __future__ import annotations

import stat
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.cli.open_command import store_beside


def test_store_goes_beside_a_file_in_a_writable_folder(tmp_path: Path) -> None:
    f = tmp_path / "run.jsonl"
    f.write_text("")
    assert store_beside(f) == tmp_path / "run.jsonl.inspector.db"


def test_read_only_folder_is_never_written_even_as_root(tmp_path: Path, isolated_cache: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    f = folder / "run.jsonl"
    f.write_text("")
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    try:
        target = store_beside(f)
    finally:
        folder.chmod(0o755)
    assert target.parent == isolated_cache / "opened" and target.name.startswith("run-")


def test_opening_a_file_that_is_not_a_store_is_bad_input_before_any_screen(tmp_path: Path) -> None:
    bad = tmp_path / "notastore.db"
    bad.write_text("hello", encoding="utf-8")
    out = CliRunner().invoke(cli, [str(bad)])
    assert out.exit_code == 3 and "not a Context Inspector store" in out.output
