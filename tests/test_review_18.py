"""Fresh eyes on this session's merges (review-18): what a person met, each a test that failed before.

``check`` is the CI gate over a store ("exit 1 on findings"). On a format-7 store it upgraded the
file to format 8 — a check that writes, the surprise ``verify`` was made to refuse
(storefault-nine): a CI job gating a store file kept with its project rewrote it, and the
inspector versions that read only format 7 could no longer open it. It now refuses as ``verify``
does (``format_upgrade_needed``, exit 3, naming ``inspector upgrade``) and leaves every byte.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_format_upgrade_said import _folder, _to_format, _version


def test_check_of_an_older_store_refuses_like_verify_and_writes_nothing(sample_store: Path) -> None:
    _to_format(sample_store, 7)
    before = _folder(sample_store)
    done = CliRunner().invoke(cli, ["check", str(sample_store), "--json"])
    assert done.exit_code == 3, done.output
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "format_upgrade_needed"
    assert f"inspector upgrade {sample_store}" in error["message"]
    assert _version(sample_store) == 7
    assert _folder(sample_store) == before  # not a byte written, no -wal or -shm left
    assert CliRunner().invoke(cli, ["upgrade", str(sample_store)]).exit_code == 0
    assert CliRunner().invoke(cli, ["check", str(sample_store), "--json"]).exit_code in (0, 1)  # judged now
