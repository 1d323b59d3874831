"""A deleted value in the spellings round eleven looks for, in an event, a material and a summary
(docs/reviews/deletion-eleven.md).

Before: base32 / base85 / Ascii85 of the value ROT13-ed or reversed, an encoding (base64, base32,
hex) of an escaped, UTF-16 or case-changed spelling, a number in English place-value words, and a
value cut in two across neighbouring events in one of these spellings (or in three parts) were said in
``not_checked`` and not looked for: ``delete`` said "done" with each left in the store. Now each is
listed with its spelling (every spelling a record holds, in ``spellings``) and removed.
"""

from __future__ import annotations

import base64
import codecs
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif
from tests.test_deletion_nine_places import _forms, _stored_bytes

AT = "2025-05-01T00:00:00Z"
SID = "s-eleven"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"
PLACE = ("thirteen billion, nine hundred twelve million, three hundred forty-five thousand, "
         "six hundred and seventy-eight")
ROT = codecs.encode(MAIL, "rot13")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# Each spelling: the text, and the spelling the listing must name (its start).
SPELLINGS = {
    "base32 of the value ROT13-ed": (base64.b32encode(ROT.encode()).decode(), "base32 of: ROT13"),
    "base32 of the value reversed": (base64.b32encode(MAIL[::-1].encode()).decode().lower(),
                                     "base32 of: reversed"),
    "base85 of the value reversed": (base64.b85encode(MAIL[::-1].encode()).decode(), "base85 of the value reversed"),
    "Ascii85 of the value ROT13-ed": (base64.a85encode(ROT.encode()).decode(), "Ascii85 of the value ROT13-ed"),
    "base64 of the value URL-escaped": (_b64(MAIL.replace("@", "%40").encode()), "base64 of: escaped"),
    "hex of the value JSON-escaped": (MAIL.replace("@", "\\u0040").encode().hex(), "hex of: escaped"),
    "base32 of the value in UTF-16": (base64.b32encode(f"to {MAIL}".encode("utf-16-le"))
                                      .decode(), "base32 of UTF-16"),
    "hex of the value in upper case": (("To: " + MAIL.upper()).encode().hex(), "hex of: case"),
    "base64 of the value's hex": (_b64(MAIL.encode().hex().encode()), "base64 of: hex"),
    "base64 of the number in words": (_b64(b"one three nine one two three four five six seven eight"),
                                      "base64 of: a number in English words"),
    "English place value": (f"call {PLACE} tonight", "a number in English place-value words"),
    "Japanese place value (no 一 before 百 and 千)": ("電話は百三十九億千二百三十四万五千六百七十八です",
                                                  "a number in Chinese place-value numerals"),
    "Korean digit by digit": ("전화 일삼구 일이삼사 오육칠팔 로 주세요", "a number in Korean (Sino-Korean) numerals"),
    "Korean place value": ("백삼십구억 천이백삼십사만 오천육백칠십팔", "a number in Korean (Sino-Korean) place-value"),
}
HARMLESS = [
    _b64(b"zq.other.person%40example.net"), (b"To: ZQ.OTHER.PERSON@EXAMPLE.NET").hex(),
    "thirteen billion, nine hundred twelve million, three hundred forty-five thousand and six",
    "the implementation configuration deadbeefcafebabe0123456789 was sixty-seven million strong",
    "이 사람은 오늘 구경을 했다, 일이삼사오육칠 번",
    base64.b32encode(b"zq.other.person@example.net"[::-1]).decode(),
]


def _records(text: str) -> list[dict]:
    event = {"type": "event", "session": SID, "trust": "model", "at": AT}
    return [
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
        {**event, "seq": 1, "kind": "user_message", "trust": "user", "content": f"call me on {PHONE} or mail {MAIL}"},
        {**event, "seq": 2, "kind": "assistant_message", "content": f"noted: {text} ok"},
        *({**event, "seq": 3 + n, "kind": "assistant_message", "content": h} for n, h in enumerate(HARMLESS)),
        {**event, "seq": 9, "kind": "tool_result", "trust": "tool", "content": "page"},
        {"type": "material", "session": SID, "id": "res:page", "source_event": 9, "disclosure_scope": "task",
         "content": f"page body {text} end", "media_type": "text/plain", "retrieved_at": AT},
        {"type": "summary", "session": SID, "generation": 1, "text": f"the user asked: {text}", "covers": [1, 9],
         "base_version": 1, "sources": ["evt:2"]},
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "remove my details"},
    ]


def _store(tmp_path: Path, records: list[dict]) -> Path:
    store = tmp_path / "s.db"
    source = write_sif(tmp_path / "in.jsonl", records)
    result = CliRunner().invoke(cli, ["import", str(source), "--into", str(store)])
    assert result.exit_code == 0, result.output
    source.unlink()
    return store


@pytest.mark.parametrize("name", list(SPELLINGS))
def test_each_spelling_is_listed_in_an_event_a_material_and_a_summary_then_removed(tmp_path: Path, name: str) -> None:
    text, how = SPELLINGS[name]
    store = _store(tmp_path, _records(text))
    runner = CliRunner()
    listing = runner.invoke(cli, ["deletion", str(store), "del-1", "--json"])
    assert listing.exit_code == 0, listing.output
    listed = {(c["where"], c["id"]): c for c in json.loads(listing.stdout)["copies"]}
    for place in (("events", "evt:2"), ("materials", "res:page"), ("summaries", "gen:1")):
        assert place in listed, (place, listing.stdout)
        assert any(s.startswith(how) for s in listed[place]["spellings"]), (place, listed[place])
        assert how in listed[place]["why"], listed[place]["why"]
    assert {ident for where, ident in listed if where == "events"} <= {"evt:1", "evt:2"}, listing.stdout  # harmless
    plain = runner.invoke(cli, ["deletion", str(store), "del-1"])
    assert f"written another way: {how}" in plain.output
    done = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["status"] == "done", done.output
    data = _stored_bytes(store)
    assert not any(f in data for f in _forms(text))
    assert all(any(f in data for f in _forms(h)) for h in HARMLESS)  # the rest is still there
    assert runner.invoke(cli, ["verify", str(store)]).exit_code == 0


def test_a_record_holding_a_value_in_several_spellings_names_each(tmp_path: Path) -> None:
    records = _records(f"{MAIL} and {_b64(MAIL.encode())} and {base64.b32encode(ROT.encode()).decode()}")
    store = _store(tmp_path, records)
    listing = CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"])
    copy = next(c for c in json.loads(listing.stdout)["copies"] if c["id"] == "evt:2")
    assert copy["spelling"] == "as written"  # the first, as before
    assert copy["spellings"][0] == "as written" and "base64" in copy["spellings"], copy
    assert any(s.startswith("base32 of: ROT13") for s in copy["spellings"]), copy
    assert "; also written another way: " in copy["why"] and "base64" in copy["why"], copy["why"]
    material = next(c for c in json.loads(listing.stdout)["copies"] if c["id"] == "res:page")
    assert material["spellings"][0] == "as written" and "base64" in material["spellings"], material


def _split(parts: list[str]) -> list[dict]:
    event = {"type": "event", "session": SID, "trust": "model", "at": AT}
    return [
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
        {**event, "seq": 1, "kind": "user_message", "trust": "user", "content": f"call me on {PHONE} or mail {MAIL}"},
        {**event, "seq": 2, "kind": "assistant_message", "content": "unrelated words here"},
        *({**event, "seq": 3 + n, "kind": "assistant_message", "content": p} for n, p in enumerate(parts)),
        {**event, "seq": 3 + len(parts), "kind": "assistant_message", "content": "the end of it"},
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "remove my details"},
    ]


_B64 = _b64(f"mail to {MAIL} please".encode())
SPLITS = {
    "a base64 run cut in two": ([f"the blob {_B64[:21]}", f"{_B64[21:]} ends"], "base64"),
    "number words over two events": (["call one three nine one two", "three four five six seven eight now"],
                                     "a number in English words"),
    "CSS escapes over two events": ([f"mail {MAIL[:10]}", f"{MAIL[10:16]}\\40 {MAIL[17:]} now"], "CSS escapes"),
    "hex cut in two": ([f"x {MAIL.encode().hex()[:20]}", f"{MAIL.encode().hex()[20:]} y"], "hex"),
    "three parts": ([f"mail {MAIL[:8]}", MAIL[8:18], f"{MAIL[18:]} now"], "case"),
    "place value over two events": (["thirteen billion, nine hundred twelve million,",
                                     "three hundred forty-five thousand, six hundred seventy-eight"],
                                    "a number in English place-value words"),
}


@pytest.mark.parametrize("name", list(SPLITS))
def test_a_value_cut_across_neighbouring_events_in_another_spelling(tmp_path: Path, name: str) -> None:
    parts, how = SPLITS[name]
    store = _store(tmp_path, _split(parts))
    runner = CliRunner()
    listing = runner.invoke(cli, ["deletion", str(store), "del-1", "--json"])
    listed = {c["id"]: c for c in json.loads(listing.stdout)["copies"] if c["where"] == "events"}
    holders = [f"evt:{3 + n}" for n in range(len(parts))]
    assert all(h in listed for h in holders), listing.stdout
    assert "evt:2" not in listed and f"evt:{3 + len(parts)}" not in listed, listing.stdout
    assert all(any(how in s for s in listed[h]["spellings"]) for h in holders), [listed[h] for h in holders]
    done = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["status"] == "done", done.output
    data = _stored_bytes(store)
    assert not any(f in data for p in parts for f in _forms(p))


def test_checked_and_not_checked_say_what_is_looked_for_now(tmp_path: Path) -> None:
    store = _store(tmp_path, _records("nothing"))
    body = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    checked, not_checked = " ".join(body["checked"]), " ".join(body["not_checked"])
    for said in ("base32 of it so turned, and base85 or Ascii85 of a sensitive value so turned", "decoded and read again",
                 "place value (thirteen billion", "in any spelling here across two or three consecutive events",
                 "spellings"):
        assert said in checked, said
    for said_before in ("base32 or base85 of a value ROT13-ed or reversed", "English place value (one hundred",
                        "an encoding of an escaped, UTF-16 or case-changed spelling or of another encoding",
                        "in three or more parts, encoded or in a second reading"):  # main's "… not looked for"
        assert said_before not in not_checked, said_before
    for still in ("Korean", "in pairs", "four or more parts", "past 2 MiB"):  # what this round does not read
        assert still in not_checked, still


async def test_the_deletion_dialog_says_every_spelling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import Static

    from inspector.services.importing import import_file
    from inspector.ui.app import InspectorApp
    from inspector.ui.deletion_dialog import DeletionDialog
    from tests.test_app import settle

    monkeypatch.setenv("INSPECTOR_REVIEWER", "o")
    store = tmp_path / "s.db"
    text = f"{MAIL} and {_b64(MAIL.replace('@', '%40').encode())} and {PLACE}"
    await import_file(write_sif(tmp_path / "in.jsonl", _records(text)), store, actor="o")
    app = InspectorApp(store, session=SID)
    async with app.run_test(size=(160, 60)) as pilot:
        await settle(app, pilot)
        await pilot.press("x", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DeletionDialog)
        shown = " ".join(str(app.screen.query_one("#deletion-text", Static).render()).split())
        assert "also written another way: " in shown and "base64 of: escaped" in shown, shown
        assert "a number in English place-value words" in shown, shown


def test_a_value_cut_across_a_call_and_its_later_result_or_an_event_and_its_material(tmp_path: Path) -> None:
    hexed = MAIL.encode().hex()
    event = {"type": "event", "session": SID, "trust": "model", "at": AT}
    records = [
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
        {"type": "tool_def", "session": SID, "name": "send", "definition_hash": "sha256:" + "a" * 64},
        {**event, "seq": 1, "kind": "user_message", "trust": "user", "content": f"call me on {PHONE} or mail {MAIL}"},
        {**event, "seq": 2, "kind": "tool_call", "call_id": "c1", "tool": "send", "args": {"blob": f"x {_B64[:21]}"}},
        {**event, "seq": 3, "kind": "assistant_message", "content": "waiting for the tool"},
        {**event, "seq": 4, "kind": "tool_result", "trust": "tool", "call_id": "c1", "tool": "send",
         "content": f"{_B64[21:]} sent"},
        {**event, "seq": 5, "kind": "assistant_message", "content": f"fetched {hexed[:20]}"},
        {**event, "seq": 6, "kind": "assistant_message", "content": "and nothing else"},
        {"type": "material", "session": SID, "id": "res:page", "source_event": 5, "disclosure_scope": "task",
         "content": f"{hexed[20:]} rest of the page", "media_type": "text/plain", "retrieved_at": AT},
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "remove my details"},
    ]
    store = _store(tmp_path, records)
    listing = CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"])
    listed = {(c["where"], c["id"]): c for c in json.loads(listing.stdout)["copies"]}
    for place, how in ((("events", "evt:2"), "base64"), (("events", "evt:4"), "base64"), (("events", "evt:5"), "hex"),
                       (("materials", "res:page"), "hex")):
        assert place in listed and any(how in s for s in listed[place]["spellings"]), (place, listing.stdout)
    assert ("events", "evt:3") not in listed and ("events", "evt:6") not in listed, listing.stdout


def test_a_kept_name_says_every_spelling_it_holds(tmp_path: Path) -> None:
    records = _records("nothing")
    key = f"contact.{MAIL}.{_b64(MAIL.encode())}"  # a state key: a name no deletion can rewrite
    records.insert(2, {"type": "state", "session": SID, "key": key, "kind": "constraint", "value": "x",
                       "writer": "user", "sources": ["evt:1"], "version": 1})
    store = _store(tmp_path, records)
    body = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    [kept] = [k for k in body["kept"] if k["what"] != "ledger entry"]
    assert kept["spelling"] == "as written" and kept["spellings"][0] == "as written", kept
    assert "base64" in kept["spellings"], kept
