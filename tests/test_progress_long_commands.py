"""``survival``, ``facts``, ``budget`` and ``check`` draw the progress line as import and report
do (flow-eight; new-user-15: 2-5 s wall under load with nothing on screen): on a terminal, only
past SHOW_AFTER_S, never under ``--json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli import budget_command, import_progress, store_commands, verdict_commands
from inspector.cli.import_progress import ProgressLine
from inspector.cli.main import cli

COMMANDS = [(verdict_commands, ["survival", "--session", "s-export"], "survival s-export"),
            (verdict_commands, ["facts", "--session", "s-export"], "facts s-export"),
            (budget_command, ["budget", "--session", "s-export"], "budget s-export"),
            (store_commands, ["check", "--session", "s-export"], "check samples.db")]


@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.parametrize(("module", "args", "label"), COMMANDS)
def test_a_long_command_draws_the_progress_line_unless_json(sample_store: Path, monkeypatch: pytest.MonkeyPatch,
                                                            module: Any, args: list[str], label: str,
                                                            as_json: bool) -> None:
    made: list[ProgressLine] = []

    class Recording(ProgressLine):
        def __init__(self, label: str, **kwargs: Any) -> None:
            super().__init__(label, **kwargs)
            made.append(self)

    monkeypatch.setattr(module, "ProgressLine", Recording)
    monkeypatch.setattr(import_progress, "_is_tty", lambda stream: True)
    argv = [args[0], str(sample_store), *args[1:]] + (["--json"] if as_json else [])
    got = CliRunner().invoke(cli, argv)
    assert got.exit_code in (0, 1), got.output
    [line] = made
    assert line.label == label and line.enabled is not as_json and line.after_s == import_progress.SHOW_AFTER_S
