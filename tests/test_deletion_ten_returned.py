"""A deleted value written again in round ten's spellings by a transcript still being followed: each
new event holding it is named ``deleted_value_returned`` (docs/reviews/deletion-ten.md).

Before: a new event's values were digested as written, in their plain spelling, escapes decoded and
Chinese numerals read as digits, so the deleted e-mail CSS-escaped or in UTF-7, or the phone number in
English digit words or Chinese place-value numerals, came back into the store with nothing said.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_hostile_seven_returned import MAIL, PHONE, _append, _event, _start

WORDS = " ".join(("zero one two three four five six seven eight nine".split())[int(d)] for d in PHONE)


def test_a_value_back_in_this_rounds_spellings_is_named(tmp_path: Path) -> None:
    source, store = _start(tmp_path)
    _append(source, _event(3, "user_message", f"mail {MAIL.replace('@', chr(92) + '40 ')} now"),
            _event(4, "assistant_message", f"utf-7: {MAIL.replace('@', '+AEA-')}"),
            _event(5, "tool_call", call_id="c5", tool="send",
                   args={"to": WORDS}),
            _event(6, "user_message", "电话 一百三十九亿一千二百三十四万五千六百七十八"),
            _event(7, "user_message", "mail zq.other.person+AEA-example.org or one two three four five six seven"),
            _event(8, "assistant_message", r"C:\dev\tmp a+b+c \d+ &amp;"))  # others: not named
    result = CliRunner().invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if "deleted_value_returned" in line]
    named = sorted(seq for seq in range(3, 9) if any(f"event {seq} " in line for line in said))
    assert named == [3, 4, 5, 6], result.stderr
