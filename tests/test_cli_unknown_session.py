"""Listing commands given a session id that is not in the store: bad input (exit 3), one sentence, one JSON document.

A mistyped ``--session`` used to print "(no actions)" / "(no candidates)" with exit 0, which reads as
"this session has none" — the reviewer would trust an empty list for a session that does not exist.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


@pytest.mark.parametrize("command", ["actions", "candidates"])
def test_unknown_session_is_bad_input(sample_store: Path, command: str) -> None:
    result = CliRunner().invoke(cli, [command, str(sample_store), "--session", "no-such-session"])
    assert result.exit_code == 3, result.output
    assert "no session 'no-such-session'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", ["actions", "candidates"])
def test_unknown_session_json_is_one_error_document(sample_store: Path, command: str) -> None:
    result = CliRunner().invoke(cli, [command, str(sample_store), "--session", "no-such-session", "--json"])
    assert result.exit_code == 3
    assert json.loads(result.stdout)["error"]["code"] == "not_found"


def test_export_of_unknown_session_leaves_nothing_on_disk(sample_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "x.sif"
    out.parent.mkdir()
    result = CliRunner().invoke(cli, ["export", str(sample_store), "--session", "no-such-session", "-o", str(out)])
    assert result.exit_code == 3
    assert "no session 'no-such-session'" in result.output
    assert list(out.parent.iterdir()) == []  # not even x.sif.partial
