"""A store restored from a backup at the same path: verify says what happened (an older or
another copy of the store now stands where the last good verify saw a longer or different
ledger) and what to do, in the CLI and in the app; the app forgets the remembered head by an
explicit, confirmed act (``F``, and the palette), as ``verify --forget-head`` does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.widgets import Static

from inspector.cli.main import cli
from inspector.services import verify_pins
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.commands import screen_commands
from inspector.ui.dialogs import MessageDialog
from tests.test_app import settle


def _verify(path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(cli, ["verify", str(path), "--json", *args])
    return result.exit_code, json.loads(result.stdout)


def _act(store: Path, value: str) -> None:
    done = CliRunner().invoke(cli, ["correct", str(store), "--session", "s-export", "--key", "open_issue.p95",
                                    "--value", value, "--reason", "r", "--reviewer", "lin"])
    assert done.exit_code == 0, done.output


@pytest.fixture
def restored(sample_store: Path, tmp_path: Path) -> Path:
    """Verified, backed up, one more act verified, then the backup copied back over it."""
    backup = tmp_path / "backup.db"
    assert _verify(sample_store)[0] == 0
    shutil.copy(sample_store, backup)
    _act(sample_store, "P95 (again)")
    assert _verify(sample_store)[0] == 0
    shutil.copy(backup, sample_store)
    return sample_store


def test_the_cli_says_an_older_copy_stands_here_and_how_to_forget_the_head(restored: Path) -> None:
    code, report = _verify(restored)
    problem = report["first_break"]
    assert code == 1 and problem["code"] == "remembered_head_differs", problem
    assert "older copy" in problem["message"] and "backup" in problem["message"], problem["message"]
    assert "this machine remembers" in problem["message"] and "restore a copy you trust" in problem["message"]
    plain = CliRunner().invoke(cli, ["verify", str(restored)])
    assert plain.exit_code == 1
    assert f"inspector verify {restored} --forget-head" in plain.stdout, plain.stdout
    assert _verify(restored, "--forget-head")[0] == 0 and _verify(restored)[0] == 0


def test_a_restored_copy_written_to_since_is_said_as_another_copy(restored: Path) -> None:
    _act(restored, "P95 (a different way)")  # the restored copy went on: entry N now differs
    code, report = _verify(restored)
    problem = report["first_break"]
    assert code == 1 and problem["code"] == "remembered_head_differs"
    assert "another copy" in problem["message"] and "rewritten" in problem["message"], problem["message"]


async def _dialog(app: InspectorApp, pilot: Any, kind: type) -> Any:
    for _ in range(40):
        await settle(app, pilot)
        if isinstance(app.screen, kind):
            return app.screen
    raise AssertionError(f"no {kind.__name__}: {app.screen!r}")


def _text(screen: Any) -> str:
    return " ".join(str(s.render()) for s in screen.query(Static))


async def test_the_app_forgets_the_head_only_when_confirmed(restored: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.ui.forget_head_dialog import ForgetHeadDialog

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(restored)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        names = [name for name, _help, _run in screen_commands(app.screen)]
        assert "Forget remembered head" in names
        await pilot.press("v")
        failed = await _dialog(app, pilot, MessageDialog)
        body = _text(failed)
        assert "older copy" in body and "press F" in body and "--forget-head" not in body, body
        await pilot.press("escape")
        await settle(app, pilot)
        key = app.screen.store.digest_key  # type: ignore[attr-defined]
        where = str(restored.resolve())
        await pilot.press("F")
        asked = await _dialog(app, pilot, ForgetHeadDialog)
        assert "backup" in _text(asked)
        await pilot.press("escape")  # not confirmed: nothing forgotten
        await settle(app, pilot)
        assert verify_pins.remembered(where, key) is not None
        await pilot.press("F")
        await _dialog(app, pilot, ForgetHeadDialog)
        await pilot.press("f")  # the confirming key
        verified = await _dialog(app, pilot, MessageDialog)
        assert "Store verified" in _text(verified), _text(verified)
        assert verify_pins.remembered(where, key) is not None  # the good verify remembered the head it found
    async with await open_store(restored) as opened:  # and the CLI's verify agrees from now on
        assert (await verify_store(opened)).ok
