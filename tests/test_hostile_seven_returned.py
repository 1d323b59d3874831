"""A value a carried-out deletion removed, written again by a followed transcript (hostile review seven).

Before: a transcript followed into a store, a deletion of the event holding a phone number
carried out, then the agent wrote the number again (``139 1234 5678``, spaced) and an e-mail of
the target in a tool call's arguments (another case): the next poll imported both as new events,
``follow`` printed them like any other, ``deletion DEL`` said nothing, ``verify`` ok — the value
was back in the store and searchable, and nobody was told. Now the deletion's ledger entry keeps
a keyed digest of each value it removed (``value_digests``; never the value), each import and
poll names every new event holding one (``deleted_value_returned``: on stderr for ``follow``, in
``import``'s problems, a notification in the app), and ``deletion DEL`` of the done request lists
them as later copies. Nothing is removed: a new request decides.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.deletion_recurrence import fingerprints, held, normal

AT = "2025-05-01T00:00:00Z"
SID = "s-back"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"


def _line(record: dict[str, object]) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


def _event(seq: int, kind: str, content: str = "", **more: object) -> dict[str, object]:
    trust = {"user_message": "user", "tool_result": "tool"}.get(kind, "model")
    return {"type": "event", "session": SID, "seq": seq, "kind": kind, "trust": trust, "at": AT, "content": content,
            **more}


def _start(tmp_path: Path) -> tuple[Path, Path]:
    source, store = tmp_path / "live.jsonl", tmp_path / "live.db"
    source.write_text("".join(_line(r) for r in [
        {"type": "header", "format": "sif/1"},
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
        _event(1, "user_message", f"call me on {PHONE} or mail {MAIL}"),
        _event(2, "assistant_message", "noted"),
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "remove my details"},
    ]), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["follow", str(source), "--into", str(store), "--once"]).exit_code == 0
    done = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["status"] == "done", done.output
    return source, store


def _append(source: Path, *records: dict[str, object]) -> None:
    with source.open("a", encoding="utf-8") as fh:
        fh.write("".join(_line(r) for r in records))


def test_a_value_written_again_after_the_deletion_is_named(tmp_path: Path) -> None:
    source, store = _start(tmp_path)
    _append(source, _event(3, "user_message", "again: my number is 139 1234 5678"),
            _event(4, "tool_call", call_id="c4", tool="send", args={"to": MAIL.upper()}),
            _event(5, "user_message", "nothing of it here"))
    result = CliRunner().invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["seq"] for line in result.stdout.splitlines()] == [3, 4, 5]  # stdout: events alone
    said = [line for line in result.stderr.splitlines() if "deleted_value_returned" in line]
    assert len(said) == 2 and "event 3 " in said[0] and "event 4 " in said[1] and "'del-1'" in said[0], result.stderr
    assert PHONE not in result.stderr and MAIL not in result.stderr.lower()

    listing = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    later = [w for w in listing["warnings"] if "later copies" in w]
    assert later and "evt:3" in later[0] and "evt:4" in later[0] and "evt:5" not in later[0], listing


def test_the_deletion_keeps_digests_never_the_values(tmp_path: Path) -> None:
    _source, store = _start(tmp_path)
    entries = json.loads(CliRunner().invoke(cli, ["ledger", str(store), "--session", SID, "--json"]).stdout)
    [deletion] = [e for e in entries if e["kind"] == "deletion"]
    prints = deletion["payload"]["value_digests"]
    assert prints and all(p.startswith("hmac-sha256:") for p in prints)
    text = store.read_bytes()
    assert PHONE.encode() not in text and MAIL.encode() not in text
    assert CliRunner().invoke(cli, ["verify", str(store)]).exit_code == 0


def test_an_import_of_another_file_names_it_too(tmp_path: Path) -> None:
    _source, store = _start(tmp_path)
    more = tmp_path / "more.jsonl"
    more.write_text(_line({"type": "header", "format": "sif/1"}) + _line(_event(9, "assistant_message",
                                                                               f"mail {MAIL} later")),
                    encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(more), "--into", str(store), "--reviewer", "r", "--json"])
    problems = [p for p in json.loads(result.stdout)["problems"] if p["code"] == "deleted_value_returned"]
    assert [(p["session"], p["seq"]) for p in problems] == [(SID, 9)], result.stdout


def test_spellings_of_one_value_share_a_fingerprint() -> None:
    digest = lambda text: "d:" + text  # noqa: E731 - the keyed digest's stand-in
    assert normal("139-1234-5678") == normal("139 1234 5678") == normal("１３９１２３４５６７８") == PHONE
    assert normal("ZQ.Hidden.Person@Example.org") == MAIL
    kept = set(fingerprints([PHONE, MAIL], digest))
    assert held(["reach me at 139-1234-5678 please"], digest) & kept
    assert not held(["nothing here at all, only words", "1234567"], digest) & kept


def test_a_harness_ledger_line_cannot_forge_a_deletion(tmp_path: Path) -> None:
    """An imported ledger line's strings are stored as keyed digests: one spelling a fingerprint's
    text (``deleted-value:…``) became one, and every later event holding the number was flagged."""
    store = tmp_path / "f.db"
    forged, later = tmp_path / "forged.jsonl", tmp_path / "later.jsonl"
    forged.write_text("".join(_line(r) for r in [
        {"type": "header", "format": "sif/1"},
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
        {"type": "ledger", "session": SID, "kind": "deletion", "actor": "h", "at": AT,
         "payload": {"request": "del-9", "value_digests": [f"deleted-value:{PHONE}"]}},
        _event(1, "user_message", "hello"),
    ]), encoding="utf-8")
    later.write_text(_line({"type": "header", "format": "sif/1"}) + _line(_event(2, "user_message", f"my number is "
                                                                                                  f"{PHONE}")),
                     encoding="utf-8")
    for source in (forged, later):
        result = CliRunner().invoke(cli, ["import", str(source), "--into", str(store), "--reviewer", "r", "--json"])
        assert result.exit_code == 0, result.output
        assert not [p for p in json.loads(result.stdout)["problems"] if p["code"] == "deleted_value_returned"]


def _following(app: object) -> bool:
    from inspector.ui.widgets.follow_bar import FollowBar

    bars = app.screen.query(FollowBar)  # type: ignore[attr-defined]
    return any(bar.follower is not None and bar.follower.resume is not None for bar in bars)


async def test_the_app_following_the_transcript_says_it(tmp_path: Path) -> None:
    import asyncio

    from inspector.ui.app import InspectorApp
    from tests.test_browser_ui import _until

    source, store = await asyncio.to_thread(_start, tmp_path)  # the CLI runs its own event loop
    app = InspectorApp(store, follow=source)
    async with app.run_test(size=(120, 40)) as pilot:
        # following (caught up to the file's end) before the line is written: waited for, not slept
        await _until(pilot, lambda: _following(app), "never followed")
        _append(source, _event(3, "user_message", f"again: {PHONE}"))
        async with asyncio.timeout(60):  # a hang guard only
            while not any("came back" in n.title for n in app._notifications):
                await pilot.pause(0.1)
        [said] = [n for n in app._notifications if "came back" in n.title]
        assert "event 3 " in said.message and "'del-1'" in said.message and PHONE not in said.message
