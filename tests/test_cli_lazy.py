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


IMPORT_PROBE = ("import sys, runpy; sys.argv = ['inspector', 'import', *sys.argv[1:]]\n"
                "try:\n    runpy.run_module('inspector', run_name='__main__')\n"
                "except SystemExit:\n    pass\n"
                "print(sorted(m for m in sys.modules if m.startswith(('inspector', 'textual'))), file=sys.stderr)")


def test_importing_a_transcript_loads_only_what_the_import_needs(tmp_path: Path) -> None:
    """``inspector import`` took its after-import lines from cli/store_commands.py, whose export,
    verify and check load the verify, drift, candidate and fact services: ~0.3 s of a cold import of
    a 4 MB transcript was those modules (bench/import_cold.py). The import itself and what it says
    after are unchanged."""
    src, store = tmp_path / "run.jsonl", tmp_path / "new.db"
    src.write_text("\n".join(json.dumps({
        "type": "user", "sessionId": "cold-0001", "uuid": f"u{n}", "cwd": "/work/cold",
        "timestamp": f"2026-03-01T10:00:{n:02d}.000Z", "message": {"role": "user", "content": text}})
        for n, text in enumerate(["fix the export timeout", "never touch the prod database"])) + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", IMPORT_PROBE, str(src), "--into", str(store), "--json",
                          "--reviewer", "ana"], capture_output=True, text=True, check=True)
    said = json.loads(run.stdout)
    assert (said["format"], said["events"], said["sessions"], said["created_store"]) == ("claude-code", 2,
                                                                                          ["cold-0001"], True)
    loaded = set(eval(run.stderr.strip().splitlines()[-1]))  # noqa: S307 -- our own repr of a list of names
    heavy = {"textual", "inspector.ui", "inspector.report", "inspector.cli.store_commands",
             "inspector.services.checking", "inspector.services.drift", "inspector.services.verifying",
             "inspector.services.exporting", "inspector.services.candidates", "inspector.services.session_facts"}
    assert not loaded & heavy, loaded & heavy
    assert {"inspector.cli.import_command", "inspector.services.importing"} <= loaded

