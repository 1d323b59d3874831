"""Ctrl+C in the first half second of any command: one line and exit 130, never "Aborted!".

While click and the command's modules load and the arguments are parsed, an interrupt was
click's "Aborted!" and exit 1 — and, landing inside a module's import, Python then ended the
process by re-raising SIGINT. The body of a command already said "interrupted; nothing partial
was committed" and exited 130; the stages before it now say so too (cli/interrupts.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli import main as cli_main
from inspector.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]


def test_an_interrupt_while_the_command_loads_is_one_line_and_130(sample_store: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(name: str) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main.importlib, "import_module", interrupted)
    monkeypatch.setattr(cli, "commands", {})  # nothing loaded yet, as in a fresh process
    out = CliRunner().invoke(cli, ["sessions", str(sample_store)])
    assert out.exit_code == 130, out.output
    assert "interrupted before the command started; nothing was changed" in out.output
    assert "Aborted" not in out.output


def test_an_interrupt_inside_a_module_import_ends_the_process_with_130(tmp_path: Path, sample_store: Path) -> None:
    """Raised in a module's own body, as a real Ctrl+C lands: Python marks it unhandled and,
    unless the entry ends the process itself, exits by SIGINT (-2) after click's "Aborted!"."""
    (tmp_path / "flow_boom.py").write_text("raise KeyboardInterrupt\n")
    script = ("import importlib, sys\n"
              f"sys.path.insert(0, {str(tmp_path)!r})\n"
              "import inspector.cli.main as m\n"
              "real = importlib.import_module\n"
              "class Boom:\n"
              "    @staticmethod\n"
              "    def import_module(name, *a):\n"
              "        return real('flow_boom') if name.startswith('inspector.cli.') else real(name, *a)\n"
              "m.importlib = Boom\n"
              "from inspector.cli.entry import main\n"
              f"main(['sessions', {str(sample_store)!r}])\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 130, (done.returncode, done.stderr)
    assert done.stderr.strip() == "interrupted before the command started; nothing was changed"


def test_an_interrupt_in_a_command_without_its_own_handler_says_it_had_started(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``open`` runs no ``run_command``: an interrupt in its body says the command had started."""
    from inspector.cli import open_command

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(open_command.open_cmd, "callback", interrupted)
    monkeypatch.setattr(cli, "commands", {})  # loaded afresh: the marking wraps the callback above
    out = CliRunner().invoke(cli, ["open", str(sample_store)])
    assert out.exit_code == 130 and "interrupted during `open`" in out.output and "Aborted" not in out.output
