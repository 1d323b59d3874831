"""Commands load lazily: listing sessions imports neither the app, the importer nor the
report; ``--help`` still lists every command, and every name loads the command it names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import COMMANDS, cli, load_command

PROBE = ("import sys, runpy; sys.argv = ['inspector', 'sessions', sys.argv[1], '--json']\n"
         "try:\n    runpy.run_module('inspector', run_name='__main__')\n"
         "except SystemExit:\n    pass\n"
         "print(sorted(m for m in sys.modules if m.startswith(('inspector', 'textual', 'multiprocessing', 'zipfile'))),"
         " file=sys.stderr)")


def test_every_command_name_loads_that_command_and_help_lists_them_all() -> None:
    for name in COMMANDS:
        assert load_command(name).name == name
    out = CliRunner().invoke(cli, ["--help"]).output
    listed = {line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(COMMANDS)


def test_listing_sessions_loads_only_what_it_needs(sample_store: Path) -> None:
    run = subprocess.run([sys.executable, "-c", PROBE, str(sample_store)], capture_output=True, text=True,
                         check=True)
    assert {row["id"] for row in json.loads(run.stdout)} >= {"s-export", "s-privacy"}
    loaded = set(eval(run.stderr.strip().splitlines()[-1]))  # noqa: S307 -- our own repr of a list of names
    heavy = {"textual", "multiprocessing", "zipfile", "inspector.services.importing", "inspector.report",
             "inspector.ui", "inspector.services.checking", "inspector.services.discovery"}
    assert not loaded & heavy, loaded & heavy
    assert "inspector.cli.sessions_command" in loaded
