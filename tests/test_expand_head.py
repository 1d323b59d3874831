"""``expand --max-bytes N`` on a stub larger than N shows its head and says what was left out.

It refused ``over_budget`` outright, while a reviewer asking for 200 bytes of a 4 KiB stub
expects its first 200 bytes. Without ``--range`` the head is read (cut back to a whole UTF-8
character) with a line, and ``--json`` fields, saying how much was left out. A range given byte
for byte keeps its exact refusals (``over_budget``, ``out_of_bounds``).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli


def _expand(store: Path, *args: str) -> tuple[int, str]:
    out = CliRunner().invoke(cli, ["expand", str(store), "stub-mid", "--session", "s-bigfold",
                                   "--reviewer", "lin", *args])
    return out.exit_code, out.output


def test_the_head_is_shown_cut_at_a_character_with_what_was_left_out(sample_store: Path) -> None:
    code, out = _expand(sample_store, "--max-bytes", "100", "--json")
    assert code == 0, out
    doc = json.loads(out)
    start, end = doc["range"]
    assert doc["truncated"] is True and doc["total_bytes"] == 4096 and doc["requested_range"] == [start, start + 4096]
    assert 96 < end - start <= 100 and doc["bytes"] == end - start  # back to the last whole character
    assert doc["left_out_bytes"] == 4096 - doc["bytes"] and doc["cut_tail_hex"] == ""
    assert doc["verified"] is True and doc["text"]
    code, plain = _expand(sample_store, "--max-bytes", "100")
    assert code == 0 and f"head only: the first {doc['bytes']} of 4,096 bytes" in plain
    assert f"{4096 - doc['bytes']:,} bytes left out" in plain
    ledger = json.loads(CliRunner().invoke(cli, ["ledger", str(sample_store), "--session", "s-bigfold", "--json"]).output)
    last = [e for e in ledger if e["kind"] == "expand"][-1]["payload"]
    assert last["range"] == [start, end] and last["head_of"] == [start, start + 4096]


def test_a_range_given_byte_for_byte_keeps_its_refusals(sample_store: Path) -> None:
    code, out = _expand(sample_store, "--max-bytes", "100", "--range", "200007:200307", "--json")
    assert code == 1 and [r["code"] for r in json.loads(out)["refusals"]] == ["over_budget"]
    code, out = _expand(sample_store, "--max-bytes", "100", "--range", "0:999999999", "--json")
    assert code == 1 and [r["code"] for r in json.loads(out)["refusals"]] == ["out_of_bounds"]


def test_a_stub_within_the_limit_is_not_truncated(sample_store: Path) -> None:
    doc = json.loads(_expand(sample_store, "--json")[1])
    assert doc["truncated"] is False and doc["total_bytes"] == doc["bytes"] == 4096 and doc["left_out_bytes"] == 0
