"""Fifth hostile round (docs/reviews/untrusted-five.md): bytes on the command line that are not UTF-8.

A raw 0x9b (an 8-bit CSI) or 0xff typed or pasted into an argument reaches Python as a lone
surrogate (``\\udc9b``). Before: `search` crashed in SQLite's binding, `correct --value` in the
record digest, `history --session` in the query: a traceback each, exit 1. Now: exit 3 with one
sentence, the byte shown as ``⟨U+DC9B⟩``, nothing changed on disk. A *path* may be any bytes
(file names are) and still works.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import file_sha

BAD = os.fsdecode(b"\x9b31m\xff")  # what Python makes of those bytes in argv
SAMPLE = Path(__file__).resolve().parent.parent / "sample_sessions" / "01_export_timeout.jsonl"


def _inspector(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "INSPECTOR_REVIEWER": "olga", "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.run([sys.executable, "-m", "inspector", *args], cwd=cwd, env=env, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=120)


@pytest.mark.parametrize("args", [
    ("search", "s.db", "--session", "s-export", BAD),
    ("correct", "s.db", "--session", "s-export", "--key", "constraint.prod", "--value", BAD, "--reason", "r"),
    ("correct", "s.db", "--session", "s-export", "--key", "constraint.prod", "--value", "v", "--reason", BAD),
    ("history", "s.db", "--session", BAD, "--key", "constraint.prod"),
    ("reject", "s.db", "cand-1", "--reason", BAD),
    ("open", "s.db", "--session", BAD),
], ids=["search", "correct-value", "correct-reason", "history", "reject", "open"])
def test_an_argument_that_is_not_utf8_is_refused_and_nothing_changes(tmp_path: Path, args: tuple[str, ...]) -> None:
    assert _inspector("import", str(SAMPLE), "--into", "s.db", cwd=tmp_path).returncode == 0
    before = file_sha(tmp_path / "s.db")
    done = _inspector(*args, cwd=tmp_path)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 3, err
    assert "Traceback" not in err and "is not UTF-8 text" in err and "⟨U+DC9B⟩" in err
    assert b"\x9b" not in done.stderr + done.stdout  # the byte itself never printed
    assert file_sha(tmp_path / "s.db") == before


def test_a_store_path_that_is_not_utf8_still_works(tmp_path: Path) -> None:
    name = os.fsdecode(b"store-\xff.db")
    assert _inspector("import", str(SAMPLE), "--into", name, cwd=tmp_path).returncode == 0
    assert _inspector("verify", name, cwd=tmp_path).returncode == 0


REAL_CC = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code" / \
    "ee8f793bfeb9-0__summary_records.jsonl"


def test_a_transcript_whose_name_is_not_utf8_is_listed(tmp_path: Path) -> None:
    """Before: one transcript in the agents' folders named in bytes that are not UTF-8 ended
    `sessions --discover` (and the start screen's listing) with a traceback: its store's name
    hashed the path as UTF-8 (discovery.store_for)."""
    if not REAL_CC.is_file():
        pytest.skip(f"needs {REAL_CC}")
    (tmp_path / "src" / "p").mkdir(parents=True)
    (tmp_path / "src" / "p" / os.fsdecode(b"x\xff.jsonl")).write_bytes(REAL_CC.read_bytes())
    env = {**os.environ, "INSPECTOR_SOURCES": str(tmp_path / "src"), "INSPECTOR_DATA_DIR": str(tmp_path / "data"),
           "INSPECTOR_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    done = subprocess.run([sys.executable, "-m", "inspector", "sessions", "--discover", "--json"], env=env,
                          capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-600:]
    assert "x\\udcff.jsonl" in done.stdout.decode("utf-8")  # exact in --json, escaped


def test_a_read_only_folders_transcript_whose_name_is_not_utf8_gets_a_store(tmp_path: Path) -> None:
    """`inspector FILE` in a folder it must not write keeps its store in the cache, named by a
    hash of the path: that hash raised UnicodeEncodeError for such a name."""
    from inspector.cli.open_command import store_beside

    folder = tmp_path / "ro"
    folder.mkdir()
    name = folder / os.fsdecode(b"t\xff.jsonl")
    name.write_bytes(SAMPLE.read_bytes())
    folder.chmod(0o555)
    try:
        assert store_beside(name).parent.name == "opened"
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("kind", ["sif", "claude-code"])
def test_a_file_whose_name_is_not_utf8_imports(tmp_path: Path, kind: str) -> None:
    """Before: the name went into the import's ledger entry (and a transcript's original material
    and origins) as a lone surrogate: a sif file ended in a UnicodeEncodeError traceback, a Claude
    Code transcript was refused as "line 3: not valid JSON"."""
    source = SAMPLE if kind == "sif" else REAL_CC
    if not source.is_file():
        pytest.skip(f"needs {source}")
    name = os.fsdecode(b"t\xff.jsonl")
    (tmp_path / name).write_bytes(source.read_bytes())
    done = _inspector("import", name, "--into", "s.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-600:]
    assert "⟨U+DCFF⟩" in done.stdout.decode("utf-8")  # shown marked
    assert _inspector("verify", "s.db", cwd=tmp_path).returncode == 0
