"""A copy of a value that runs across lines says the lines of the target it repeats.

review-14: a Chinese postal address is one sensitive value even with its number on the next
line ("…中关村大街\\n27号"). No single line of the target holds it, so the copy that repeats it was
said to repeat "a value of evt:1's fields (a call's input or another field)" — though it was in
the target's text, not in any field.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.deletion_places import Places
from inspector.services.importing import import_file
from tests.conftest import event_record, session_record, write_sif

ADDRESS = "寄到北京市海淀区中关村大街\n27号"


def test_a_value_across_lines_is_said_by_its_lines() -> None:
    places = Places()
    places.add("evt:1", f"收件人信息如下：\n{ADDRESS}，请尽快。", [])
    assert places.why("evt:4", f"再说一遍：{ADDRESS}", [ADDRESS]) == "repeats lines 2–3 of evt:1"
    assert places.why("evt:5", "还是：寄到北京市海淀区中关村大街", ["寄到北京市海淀区中关村大街"]) == "repeats line 2 of evt:1"


def test_the_deletion_listing_names_the_lines_not_the_fields(tmp_path: Path) -> None:
    records = [session_record(),
               event_record(1, kind="user_message", trust="user", content=f"收件人信息如下：\n{ADDRESS}，请尽快。"),
               event_record(2, kind="assistant_message", trust="model", content=f"好的，{ADDRESS}。"),
               {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "an address"}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    doc = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    why = {c["id"]: c["why"] for c in doc["copies"] if c["where"] == "events"}
    assert why["evt:2"] == "repeats lines 2–3 of evt:1", why
