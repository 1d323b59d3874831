"""Ctrl+C after a command's body returned is not an interruption (review-14).

SIGINT 60 ms after ``import`` printed "imported … into a new store" (the store whole and
committed) landed in ``asyncio.run``'s shutdown of the loop: the command then said
"interrupted; nothing partial was committed" and exited 130, so a script took a finished
import for a failed one. An interrupt while the body runs still ends 130.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


def test_an_interrupt_while_the_loop_shuts_down_keeps_the_commands_result(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_close = asyncio.Runner.close

    def close_interrupted(self: asyncio.Runner) -> None:
        real_close(self)
        raise KeyboardInterrupt  # as a Ctrl+C landing while the loop shuts down

    monkeypatch.setattr(asyncio.Runner, "close", close_interrupted)
    out = CliRunner().invoke(cli, ["sessions", str(sample_store)])
    assert out.exit_code == 0, out.output
    assert "interrupted" not in out.output and ("session in" in out.output or "sessions in" in out.output)


def test_an_interrupt_in_the_body_still_ends_130(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard: the fix is only for an interrupt after the body returned."""
    from inspector.services import sessions

    async def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(sessions, "list_sessions", interrupted)
    out = CliRunner().invoke(cli, ["sessions", str(sample_store)])
    assert out.exit_code == 130 and "interrupted" in out.output, out.output
