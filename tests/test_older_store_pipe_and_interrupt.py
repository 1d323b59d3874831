"""A command on an older store ended by a closed pipe or by Ctrl+C (storefault-eleven, lead-18 #4).

Before, ``inspector ledger old.db | head -1`` and a Ctrl+C while a command ran both left the store
byte for byte (the held upgrade rolled back) but lost the "left at format N" line: a reader of
stderr could not tell whether the older store had been upgraded.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.test_format_upgrade_said import _folder, _to_format, _version


def _popen(args: list[str], tmp_path: Path, **more: object) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", INSPECTOR_REVIEWER="lin",
               INSPECTOR_DATA_DIR=str(tmp_path / "data"), INSPECTOR_CONFIG_DIR=str(tmp_path / "config"))
    return subprocess.Popen([sys.executable, "-m", "inspector", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, **more)  # type: ignore[call-overload]


def test_a_closed_pipe_leaves_the_older_store_and_still_says_so(sample_store: Path, tmp_path: Path) -> None:
    _to_format(sample_store, 8)
    before = _folder(sample_store)
    child = _popen(["ledger", str(sample_store)], tmp_path)
    assert child.stdout is not None
    child.stdout.close()  # `| head -1` gone before the first line is written: the write meets EPIPE
    err = child.stderr.read() if child.stderr else ""
    code = child.wait(timeout=120)
    assert code == 1, err  # click's quiet end of a closed pipe
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert "left at format 8, as nothing was written" in err, err
    assert _folder(sample_store) == before and _version(sample_store) == 8


def test_ctrl_c_during_a_command_leaves_the_older_store_and_says_so(sample_store: Path, tmp_path: Path) -> None:
    _to_format(sample_store, 8)
    before = _folder(sample_store)
    (tmp_path / "judge").mkdir()
    asked = tmp_path / "judge" / "asked"  # not beside the store, whose folder is compared
    judge = f"sh -c 'touch {asked}; exec sleep 60'"  # the command waits on its judge with the store open
    child = _popen(["survival", str(sample_store), "--session", "s-export", "--judge", judge], tmp_path)
    deadline = time.monotonic() + 90
    while not asked.exists():
        assert child.poll() is None and time.monotonic() < deadline, child.communicate()
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "Traceback" not in err, err
    assert "left at format 8, as nothing was written" in err and "interrupted" in err, err
    assert _folder(sample_store) == before and _version(sample_store) == 8
