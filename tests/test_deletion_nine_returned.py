"""A deleted value written again, in this round's spellings, by a transcript still being followed
(hostile review nine): each new event holding it is named ``deleted_value_returned``.

Before: a new event's values were digested as written (and in their plain spelling), so the
deleted e-mail ROT13-ed, reversed, percent- or quoted-printable-escaped, or the phone number in
Chinese numerals came back into the store with nothing said.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_hostile_seven_returned import MAIL, PHONE, _append, _event, _start


def test_a_value_back_in_this_rounds_spellings_is_named(tmp_path: Path) -> None:
    source, store = _start(tmp_path)
    _append(source, _event(3, "user_message", f"mail {codecs.encode(MAIL, 'rot13')} now"),
            _event(4, "assistant_message", f"reversed: {MAIL[::-1]}"),
            _event(5, "tool_call", call_id="c5", tool="send", args={"to": MAIL.replace("@", "%40")}),
            _event(6, "user_message", "电话 " + PHONE.translate(str.maketrans("0123456789", "〇一二三四五六七八九"))),
            _event(7, "tool_result", "To: zq.hidden.pe=\r\nrson=40example.org", call_id="c5", tool="send"),
            _event(8, "user_message", "mail zq.other.person@example.org or 一三九一二三四五六七九"))  # others: not named
    result = CliRunner().invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if "deleted_value_returned" in line]
    named = sorted(seq for seq in range(3, 9) if any(f"event {seq} " in line for line in said))
    assert named == [3, 4, 5, 6, 7], result.stderr
