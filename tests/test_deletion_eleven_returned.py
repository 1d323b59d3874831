"""A deleted value written again by a followed transcript in base64, base32, hex or Ascii85 (of any
spelling), in English place-value words, or cut in two across two new events — or across the last
event imported before and the first new one: each is named ``deleted_value_returned``
(docs/reviews/deletion-eleven.md).

Before: ``follow`` digested what a new event held as written and in round ten's second readings; a
copy the deletion listing finds encoded or split came back into the store with nothing said.
"""

from __future__ import annotations

import base64
import codecs
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_hostile_seven_returned import MAIL, PHONE, _append, _event, _start

_B64 = base64.b64encode(f"reach me at {MAIL} today".encode()).decode()


def _said(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "deleted_value_returned" in line]


def test_a_value_back_encoded_or_in_place_value_words_is_named(tmp_path: Path) -> None:
    source, store = _start(tmp_path)
    _append(source,
            _event(3, "user_message", f"token {base64.b64encode(MAIL.encode()).decode()}"),
            _event(4, "assistant_message", base64.b32encode(MAIL.upper().encode("utf-16-le")).decode()),
            _event(5, "tool_call", call_id="c5", tool="send", args={"to": MAIL.replace("@", "%40").encode().hex()}),
            _event(6, "user_message", "<~" + base64.a85encode(PHONE.encode()).decode() + "~>"),
            _event(7, "user_message", "thirteen billion nine hundred twelve million three hundred forty-five "
                                      "thousand six hundred seventy-eight"),
            _event(8, "assistant_message", base64.b64encode(codecs.encode(MAIL, "rot13").encode()).decode()),
            _event(9, "user_message", base64.b64encode(b"zq.other.person@example.net").decode()
                   + " deadbeefcafebabe0011 the implementation ok"),  # another address: not named
            _event(10, "user_message", "thirteen billion nine hundred twelve million and five"),  # another number
            _event(11, "user_message", "전화 일삼구 일이삼사 오육칠팔 로 주세요"))
    result = CliRunner().invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert result.exit_code == 0, result.output
    said = _said(result.stderr)
    named = sorted(seq for seq in range(3, 12) if any(f"event {seq} " in line for line in said))
    assert named == [3, 4, 5, 6, 7, 8, 11], result.stderr
    assert MAIL not in result.stderr.lower() and PHONE not in result.stderr


def test_a_value_back_cut_across_two_new_events_is_named(tmp_path: Path) -> None:
    source, store = _start(tmp_path)
    _append(source,
            _event(3, "assistant_message", f"streaming {_B64[:17]}"),
            _event(4, "assistant_message", f"{_B64[17:]} done"),
            _event(5, "user_message", "my number: one three nine one two"),
            _event(6, "user_message", "three four five six seven eight"),
            _event(7, "user_message", "nothing here"),
            _event(8, "user_message", "nor here"))
    result = CliRunner().invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert result.exit_code == 0, result.output
    said = _said(result.stderr)
    assert any("events 3 and 4 " in line for line in said), result.stderr
    assert any("events 5 and 6 " in line for line in said), result.stderr
    assert not any(f"event {n} " in line or f"and {n} " in line for line in said for n in (7, 8)), result.stderr


def test_a_value_back_cut_across_the_last_poll_and_this_one_is_named(tmp_path: Path) -> None:
    source, store = _start(tmp_path)
    _append(source, _event(3, "assistant_message", f"mail {MAIL[:12]}"))
    runner = CliRunner()
    first = runner.invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert first.exit_code == 0 and _said(first.stderr) == [], first.stderr
    _append(source, _event(4, "assistant_message", f"{MAIL[12:]} please"))
    second = runner.invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert second.exit_code == 0, second.output
    assert any("events 3 and 4 " in line for line in _said(second.stderr)), second.stderr


def test_a_value_back_with_a_separator_between_every_letter_is_named(tmp_path: Path) -> None:
    source, store = _start(tmp_path)
    _append(source,
            _event(3, "user_message", f"write to {'.'.join(MAIL)} today"),
            _event(4, "assistant_message", f"a {' - '.join(MAIL)}"),  # a one-letter word before it
            _event(5, "user_message", "-".join("zq.other.person@example.net")),  # another address: not named
            _event(6, "user_message", "a.b.c.d.e.f.g.h and i-j-k-l-m-n-o"))
    result = CliRunner().invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert result.exit_code == 0, result.output
    said = _said(result.stderr)
    assert sorted(seq for seq in range(3, 7) if any(f"event {seq} " in line for line in said)) == [3, 4], said
