"""A whole value at a text's end is not a value split in two (hostile review six).

The patterns' runs of name characters read on into the next text: an e-mail ending a tool
call's input, followed by an event that starts "write to…", was taken for the split value
``…@example.orgwrite``; its two parts then matched the request's own reason (ending with the
address) and every text starting "write", and `delete` removed those unrelated events as
"part of a value split across del-1 and evt:1". A key ending one event did the same with
the next event's first word ("Done"), in any event of the session starting with it, and a
phone number ending one event ran on into the date starting the next (``138001380002024-05-01``,
a "card number"): every event starting with that date went too.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.deletion_split import straddling
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
SID = "s-whole"
MAIL = "zqx.secret.mail@example.org"
KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c"


def _event(seq: int, kind: str, content: str = "", **more: object) -> dict[str, object]:
    trust = {"user_message": "user", "tool_result": "tool"}.get(kind, "model")
    return {"type": "event", "session": SID, "seq": seq, "kind": kind, "trust": trust, "at": AT,
            "content": content, **more}


def _records() -> list[dict[str, object]]:
    return [
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
        _event(1, "user_message", "write to the customer please"),
        _event(2, "tool_call", call_id="c2", tool="send_mail", args={"to": MAIL}),
        _event(3, "tool_result", f"sent to {MAIL}", call_id="c2", tool="send_mail"),
        _event(4, "assistant_message", f"the key was {KEY}"),
        _event(5, "user_message", "Done with that, thanks"),
        _event(6, "user_message", "write the report next"),
        _event(7, "user_message", "Done reading the logs"),
        _event(8, "user_message", "my phone: 13800138000"),
        _event(9, "user_message", "2024-05-01 meeting notes"),
        _event(10, "user_message", "2024-05-01 lunch order"),
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:2", "evt:3", "evt:4", "evt:8"],
         "reason": f"erase {MAIL}"},
    ]


def test_a_value_whole_in_one_text_is_not_run_on_into_the_next() -> None:
    assert straddling(f"mail {MAIL}", "write to the customer") == []
    assert straddling("please", f"{MAIL} now") == []
    assert straddling(f"key {KEY}", "Done with that") == []
    assert straddling("my phone: 13800138000", "2024-05-01 meeting notes") == []
    assert straddling("my phone: 138-0013-8000 ", "2024-05-01 meeting notes") == []
    # a real split is still found
    assert straddling("mail zqx.secret.mail@exa", "mple.org now") == [MAIL]
    assert straddling("streamed: " + KEY[:10], KEY[10:] + " done") == [KEY]
    assert straddling("call 138-0013-", "8000 now") == ["138-0013-8000"]
    assert straddling("order 1234 5678", "9012 3456 shipped") == ["1234 56789012 3456"]


def test_deleting_an_address_takes_no_unrelated_event(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    runner = CliRunner()
    env = {"INSPECTOR_REVIEWER": "o"}
    result = runner.invoke(cli, ["import", str(write_sif(tmp_path / "s.jsonl", _records())), "--into", str(store)],
                           env=env)
    assert result.exit_code == 0, result.output
    doc = json.loads(runner.invoke(cli, ["deletion", str(store), "del-1", "--json"], env=env).stdout)
    listed = {c["id"] for c in doc["copies"] if c["where"] == "events"}
    assert listed == {"evt:2", "evt:3", "evt:4", "evt:8"}, doc["copies"]
