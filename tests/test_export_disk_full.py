"""An export whose disk fills while it is written (store-fault-six).

Before: ``export`` to a full disk printed a traceback (the record reader, abandoned mid-way,
was closed by the event loop after the store: "Task exception was never retrieved …
ValueError: Connection closed") and said "the disk holding **the store** is full" — the
store's disk was not; ``export --original`` said the same and left ``FILE.partial`` behind.
Now both say the output file's disk is full (``disk_full``, exit 3), with no traceback and no
file left. The full disk is RLIMIT_FSIZE in a child process (EFBIG past the limit), as in
tests/test_store_faults.py.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

LIMIT = 48 * 1024  # above the store's -shm (32 KiB), below either export


def _child(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))

    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", INSPECTOR_REVIEWER="lin")
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True, env=env,
                          preexec_fn=limit, timeout=120, cwd=cwd)


def _rollout(tmp_path: Path) -> Path:
    """A Codex rollout whose original (kept byte for byte) is larger than the limit."""
    path = tmp_path / "rollout-big.jsonl"
    meta = {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "cx-big", "cwd": "/r"}}
    said = {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item", "payload": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix it " * 12000}]}}
    path.write_text(json.dumps(meta) + "\n" + json.dumps(said) + "\n")
    return path


@pytest.mark.parametrize("original", [False, True])
def test_an_export_onto_a_full_disk_names_the_file_and_leaves_nothing(
        sample_store: Path, tmp_path: Path, original: bool) -> None:
    args = ["export", str(sample_store), "-o", str(tmp_path / "out.jsonl"), "--json"]
    if original:
        from click.testing import CliRunner

        from inspector.cli.main import cli
        imported = CliRunner().invoke(cli, ["import", str(_rollout(tmp_path)), "--into", str(sample_store),
                                            "--reviewer", "lin"])
        assert imported.exit_code == 0, imported.output
        args += ["--session", "cx-big", "--original"]
    before = sorted(p.name for p in tmp_path.iterdir())
    done = _child(args, tmp_path)
    assert done.returncode == 3, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "disk_full" and str(tmp_path / "out.jsonl") in error["message"], error
    assert "the store" not in error["message"]
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no out.jsonl, no out.jsonl.partial
