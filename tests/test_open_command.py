"""Where ``inspector FILE`` keeps its store."""

from __future__ import annotations

import stat
from pathlib import Path

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
