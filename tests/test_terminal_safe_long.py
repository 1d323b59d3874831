"""A long ASCII text is made terminal-safe without the character-class search (session 16).

The class search took 7.7 s over a 30 MB pasted log (export, the event view); an ASCII text can only
hold the class's ASCII members (C0 controls but tab and line feed, DEL), found by one byte pass.
"""

from __future__ import annotations

import re

import pytest

from inspector.domain import terminal_safe
from inspector.domain.terminal_safe import json_safe, line_safe

LOG = "2026-01-06T14:55:20Z INFO req=1672798 latency=59ms\tstatus=500\n" * 200


class _Refuses:
    def search(self, text: str) -> re.Match[str] | None:
        raise AssertionError("the character-class search ran over a long ASCII text")


def test_a_long_ascii_text_is_not_searched_character_by_character(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terminal_safe, "_MAYBE", _Refuses())
    assert terminal_safe.terminal_safe(LOG) is LOG and json_safe(LOG) is LOG


@pytest.mark.parametrize("code", [*range(0, 32), 127])
def test_every_ascii_control_in_a_long_text_is_still_marked(code: int) -> None:
    text = LOG + chr(code) + LOG
    plain = terminal_safe._UNSAFE.sub(terminal_safe._replacement, text)  # the class's own answer
    assert terminal_safe.terminal_safe(text) == plain
    assert line_safe(text) == line_safe(LOG + chr(code)) + line_safe(LOG)
