"""A deleted value cut in two across consecutive events, in this round's spellings (hostile review
nine): each half is found, with the event that holds the other half.

Before: the split finder compared each text's folded edges with the value and its digits only,
so an e-mail ROT13-ed or reversed and cut in two, a phone number in Chinese numerals or with
underscores cut in two, a reversed number, and an escape cut in the middle (``…person%`` +
``40example.org``, ``…\\u00`` + ``40…``: neither edge alone decodes it) were not listed, and
``delete`` left both halves.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
SID = "s-split"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"
ROT = codecs.encode(MAIL, "rot13")
HALVES = {
    "quoted-printable": ("see zq.hidden.pe", "rson=40example.org ok"),
    "chinese numerals": ("电话一三九一二", "三四五六七八"),
    "underscores": ("ref 139_1234_", "5678 end"),
    "rot13": ("x " + ROT[:12], ROT[12:] + " y"),
    "reversed": ("x " + MAIL[::-1][:12], MAIL[::-1][12:]),
    "reversed number": ("876543", "21931"),
    "percent escape cut": ("zq.hidden.person%", "40example.org"),
    "json escape cut": ("zq.hidden.person\\u00", "40example.org"),
}


@pytest.mark.parametrize("case", sorted(HALVES))
def test_both_halves_are_listed(tmp_path: Path, case: str) -> None:
    first, second = HALVES[case]
    event = {"type": "event", "session": SID, "kind": "assistant_message", "trust": "model", "at": AT}
    records = [{"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
               {**event, "seq": 1, "kind": "user_message", "trust": "user", "content": f"call {PHONE} mail {MAIL}"},
               {**event, "seq": 2, "content": first}, {**event, "seq": 3, "content": second},
               {**event, "seq": 4, "content": "an unrelated answer"},
               {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "mine"}]
    store = tmp_path / "s.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(write_sif(tmp_path / "in.jsonl", records)), "--into",
                               str(store)]).exit_code == 0
    listing = json.loads(runner.invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    assert {c["id"] for c in listing["copies"] if c["where"] == "events"} == {"evt:1", "evt:2", "evt:3"}
