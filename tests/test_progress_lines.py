"""Progress on a loaded machine (flow-seven, item 3): ``import`` and ``report`` say what they are
doing on a terminal when the work lasts more than a second — never under ``--json`` or when
piped. Before, an import printed "reading: 0/1 records (0%)" at once (under ``--json`` too) and
then nothing while it waited 5 s for a write lock another reviewer held; ``report`` said
nothing. Checked with a held write lock, not with sleeps."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli import import_progress
from inspector.cli.import_progress import ERASE, ProgressLine
from inspector.cli.main import cli
from tests.conftest import event_record, session_record, write_sif

ROOT = Path(__file__).resolve().parents[1]


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _until(check: Callable[[], bool], what: str, limit_s: float = 20.0) -> None:
    end = time.monotonic() + limit_s
    while not check():
        assert time.monotonic() < end, f"never: {what}"
        time.sleep(0.01)


def test_the_line_shows_after_the_threshold_and_is_erased_when_the_work_ends() -> None:
    stream = _Tty()
    with ProgressLine("import a.jsonl", stream=stream, after_s=0.0) as progress:
        progress("waiting for the store", 0, 0)
        _until(lambda: "import a.jsonl: waiting for the store · " in stream.getvalue(), "the line")
    assert stream.getvalue().endswith(ERASE)  # the command's own output starts on a clean line


def test_nothing_is_drawn_for_work_shorter_than_the_threshold_or_off_a_terminal() -> None:
    quick = _Tty()
    with ProgressLine("import a.jsonl", stream=quick, after_s=3600.0) as progress:
        progress("importing", 5, 10)
    assert quick.getvalue() == ""
    piped = io.StringIO()
    with ProgressLine("import a.jsonl", stream=piped, after_s=0.0) as progress:
        assert not progress.enabled
    assert piped.getvalue() == ""
    assert not ProgressLine("x", stream=_Tty(), enabled=False).enabled  # --json


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "s.db"
    done = CliRunner().invoke(cli, ["import", str(write_sif(tmp_path / "a.sif", [session_record(), event_record(1)])),
                                    "--into", str(store)])
    assert done.exit_code == 0, done.output
    return store


def _in_a_terminal(args: list[str], seen: Callable[[str], bool] | None = None,
                   then: Callable[[], None] | None = None) -> tuple[int, str]:
    """Run ``python -m inspector ARGS`` with stdout and stderr on a pseudo-terminal; when the
    output so far satisfies ``seen``, call ``then`` once."""
    parent, child = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "INSPECTOR_REVIEWER": "lin", "COLUMNS": "200"}
    proc = subprocess.Popen([sys.executable, "-m", "inspector", *args], stdin=child, stdout=child, stderr=child,
                            env=env, cwd=ROOT)
    os.close(child)
    out = b""
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            ready, _, _ = select.select([parent], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(parent, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            if seen is not None and then is not None and seen(out.decode("utf-8", "replace")):
                then()
                then = None
            if not ready and proc.poll() is not None:
                break
        return proc.wait(timeout=30), out.decode("utf-8", "replace")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(parent)


def test_an_import_waiting_for_a_held_write_lock_says_so_then_finishes(tmp_path: Path) -> None:
    store = _store(tmp_path)
    more = write_sif(tmp_path / "b.sif", [session_record("s2"), event_record(1, "s2")])
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another reviewer's write, held until the line is seen
    released: list[bool] = []

    def release() -> None:
        holder.execute("ROLLBACK")
        released.append(True)

    try:
        code, out = _in_a_terminal(["import", str(more), "--into", str(store)],
                                   seen=lambda text: "b.sif: waiting for the store (another write may hold it) · "
                                   in text, then=release)
    finally:
        holder.close()
    assert released, out  # the line came while the lock was held (before: "reading: 0/1 records (0%)")
    assert code == 0, out
    assert "imported " in out and "reading: 0/1" not in out


def test_an_import_with_json_on_a_terminal_prints_only_its_document(tmp_path: Path) -> None:
    store = _store(tmp_path)
    more = write_sif(tmp_path / "b.sif", [session_record("s2"), event_record(1, "s2")])
    code, out = _in_a_terminal(["import", str(more), "--into", str(store), "--json"])
    assert code == 0, out
    assert json.loads(out)["sessions"] == ["s2"], out  # nothing but the document (before: "\rreading: 0/1 …")


@pytest.mark.parametrize("as_json", [False, True])
def test_report_draws_its_line_on_a_terminal_unless_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         as_json: bool) -> None:
    from inspector.cli import report_commands

    made: list[Any] = []

    class Recording(ProgressLine):
        def __init__(self, label: str, **kwargs: Any) -> None:
            super().__init__(label, **kwargs)
            self.stages: list[str] = []
            made.append(self)

        def __call__(self, stage: str, done: int = 0, total: int = 0) -> None:
            self.stages.append(stage)  # self.stage keeps the first, given when it was made

    monkeypatch.setattr(report_commands, "ProgressLine", Recording)
    monkeypatch.setattr(import_progress, "_is_tty", lambda stream: True)
    store = _store(tmp_path)
    args = ["report", str(store), "--session", "s1", "-o", str(tmp_path / "r.html")] + (["--json"] if as_json else [])
    assert CliRunner().invoke(cli, args).exit_code == 0
    [line] = made
    assert line.enabled is not as_json and line.label == "report s1"
    assert line.stage == "opening the store" and line.stages[-1].startswith("reading the log")


@pytest.mark.parametrize("as_json", [False, True])
def test_delete_and_export_draw_their_line_on_a_terminal_unless_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    as_json: bool) -> None:
    """A deletion looking for a pasted log's values (18 s for 1 MB) and an export of a huge message
    said nothing on a terminal until they ended (session 16)."""
    from inspector.cli import deletion_commands, store_commands

    made: list[ProgressLine] = []

    class Recording(ProgressLine):
        def __init__(self, label: str, **kwargs: Any) -> None:
            super().__init__(label, **kwargs)
            made.append(self)

    for module in (deletion_commands, store_commands):
        monkeypatch.setattr(module, "ProgressLine", Recording)
    monkeypatch.setattr(import_progress, "_is_tty", lambda stream: True)
    store = _store(tmp_path)
    flag = ["--json"] if as_json else []
    assert CliRunner().invoke(cli, ["export", str(store), "-o", str(tmp_path / "x.jsonl"), *flag]).exit_code == 0
    filed = CliRunner().invoke(cli, ["request-deletion", str(store), "--session", "s1", "evt:1", "--reason", "asked",
                                     "--reviewer", "owner", "--json"])
    assert filed.exit_code == 0, filed.output
    request = json.loads(filed.stdout)["request"]
    assert CliRunner().invoke(cli, ["delete", str(store), request, "--reviewer", "owner", *flag]).exit_code == 0
    assert [(line.label, line.enabled) for line in made] == [("export x.jsonl", not as_json),
                                                              (f"delete {request}", not as_json)]
