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


# ``deletion`` of a carried-out request named only its targets as gone ("gone: evt:1 — deleted by
# ledger entry L3"), in the CLI, its --json and the app's Deletions tab, though its deletion removed
# every copy it listed: on a real Claude Code transcript, one target took 23 other events, the
# original transcript's bytes and a tool result with it. Whoever audits the request afterwards was
# not told what went; the ledger entry holds the list, and the listing now says it.

AT = "2025-05-01T00:00:00Z"
MAIL = "zq.hidden.person@example.org"


def _deleted_store(tmp_path: Path) -> Path:
    from tests.conftest import write_sif
    event = {"type": "event", "session": "s", "kind": "assistant_message", "trust": "model", "at": AT}
    records = [{"type": "session", "id": "s", "title": "t", "owner": "o", "created_at": AT},
               {**event, "seq": 1, "kind": "user_message", "trust": "user", "content": f"mail me at {MAIL}"},
               {**event, "seq": 2, "content": f"noted: {MAIL}"},
               {**event, "seq": 3, "content": "an unrelated answer"},
               {"type": "deletion_request", "session": "s", "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "mine"}]
    store = tmp_path / "s.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(write_sif(tmp_path / "in.jsonl", records)), "--into",
                               str(store)]).exit_code == 0
    done = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "o"])
    assert done.exit_code == 0, done.output
    return store


def test_a_done_request_names_every_event_its_deletion_removed(tmp_path: Path) -> None:
    store = _deleted_store(tmp_path)
    listing = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    assert listing["status"] == "done"
    assert listing["removed"]["events"] == ["evt:1", "evt:2"]
    assert listing["removed"]["ledger"] >= 2
    plain = CliRunner().invoke(cli, ["deletion", str(store), "del-1"]).stdout
    assert "evt:2" in plain and "2 events" in plain, plain


def test_the_original_transcript_removed_is_named_among_the_materials(tmp_path: Path) -> None:
    src = tmp_path / "chat.json"
    src.write_text(json.dumps({"messages": [{"role": "user", "content": f"mail me at {MAIL}"},
                                            {"role": "assistant", "content": "noted"}]}))
    store = tmp_path / "s.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(src), "--into", str(store), "--from", "openai-chat"]).exit_code == 0
    session = json.loads(runner.invoke(cli, ["sessions", str(store), "--json"]).stdout)[0]["id"]
    assert runner.invoke(cli, ["request-deletion", str(store), "--session", session, "evt:1", "--reason", "mine",
                               "--reviewer", "r"]).exit_code == 0
    assert runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r"]).exit_code == 0
    listing = json.loads(runner.invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    assert any(m.startswith("original:") for m in listing["removed"]["materials"]), listing["removed"]


def test_the_app_deletion_dialog_names_them_too(tmp_path: Path) -> None:
    import asyncio

    from inspector.services.deletions import check
    from inspector.store.connection import open_store
    from inspector.ui.deletion_dialog import coverage_content
    store = _deleted_store(tmp_path)

    async def read() -> str:
        async with await open_store(store) as opened:
            return coverage_content(await check(opened, "del-1")).plain
    text = asyncio.run(read())
    assert "evt:2" in text and "2 events" in text, text


# ``import`` of a file that is not a transcript at all into a format-7 store: refused ("cannot tell
# what notes.txt is"), yet the store was upgraded to format 8 first — the check for an earlier
# import the file continues opened the store before anything read the file. Bad input changes
# nothing on disk: the file is recognised before the store is opened.

def test_importing_a_file_that_is_no_transcript_into_an_older_store_leaves_it_as_it_was(
        sample_store: Path, tmp_path: Path) -> None:
    _to_format(sample_store, 7)
    before = _folder(sample_store)
    notes = tmp_path / "elsewhere"
    notes.mkdir()
    (notes / "notes.txt").write_text("not json at all\n")
    done = CliRunner().invoke(cli, ["import", str(notes / "notes.txt"), "--into", str(sample_store), "--json"])
    assert done.exit_code == 3, done.output
    assert "cannot tell what notes.txt is" in json.loads(done.stdout)["error"]["message"]
    assert _version(sample_store) == 7
    assert _folder(sample_store) == before


def test_a_wrong_from_into_an_older_store_leaves_it_as_it_was(sample_store: Path, tmp_path: Path) -> None:
    """``--from gemini`` on JSON lines: refused (the file is JSON lines), after the look for an
    unchanged earlier import had upgraded the store — now that look does not upgrade."""
    _to_format(sample_store, 7)
    before = _folder(sample_store)
    lines = tmp_path / "elsewhere" / "run.jsonl"
    lines.parent.mkdir()
    lines.write_text('{"type": "user", "message": {"role": "user", "content": "hi"}}\n{"type": "x"}\n')
    done = CliRunner().invoke(cli, ["import", str(lines), "--from", "gemini", "--into", str(sample_store), "--json"])
    assert done.exit_code == 3, done.output
    assert _version(sample_store) == 7
    assert _folder(sample_store) == before
