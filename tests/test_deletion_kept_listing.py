"""A deletion refused because names keep copies (``copy_kept``) lists every copy and how to
remove it. It stays a refusal: deleting the rest while the value stays in a record id would
let "deleted" be said of a secret still in the store. So the refusal must be enough to act
on — no "and N more" to look up elsewhere, and the way out (a new store from an edited
export) said with each copy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.test_deletion_names import _action_id, _file_name, _import, _state_key
from tests.test_deletion_variants import KEY, PHONE, SID, _records, _run


def _more_actions(records: list[dict[str, Any]]) -> None:
    for n in (2, 3):
        records.insert(2, {"type": "action", "session": SID, "id": f"retry{n}-{PHONE}", "intent": "phone back",
                           "status": "succeeded"})
    records.insert(2, {"type": "action", "session": SID, "id": f"key-{KEY}", "intent": "rotate",
                       "status": "succeeded"})


def test_the_refusal_lists_every_kept_copy_and_how_to_remove_it(tmp_path: Path) -> None:
    records, _copies, _ = _records()
    for add in (_state_key, _file_name, _action_id, _more_actions):
        add(records)
    store = _import(tmp_path, records)
    listed = json.loads(_run("deletion", str(store), "del-v", "--json")[1])
    kept = listed["kept"]
    assert len(kept) >= 6, kept
    assert all("inspector export" in k["remedy"] and SID in k["remedy"] for k in kept), kept
    before = {p.name: p.read_bytes() for p in tmp_path.glob("n.db*")}
    code, out = _run("delete", str(store), "del-v", "--json")
    refusal = json.loads(out)["refusals"][0]
    assert code == 1 and refusal["code"] == "copy_kept"
    assert all(k["name"] in refusal["message"] for k in kept), refusal["message"]
    assert "more" not in refusal["message"] and "inspector export" in refusal["message"]
    assert {p.name: p.read_bytes() for p in tmp_path.glob("n.db*")} == before
    text = _run("deletion", str(store), "del-v")[1]
    assert text.count("to remove them:") == 1 and "inspector export" in text  # one instruction (flow-ten)
