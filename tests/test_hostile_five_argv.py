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
