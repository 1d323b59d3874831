"""A secret copied in another spelling is still a copy: case, spacing, line breaks, invisible
characters, fullwidth forms, URL / JSON / HTML escapes, base64 and hex, spelled-out "at"/"dot".

One target event holds an e-mail address, an API key and a phone number; every other event
holds one of them written another way (or, as controls, only a harmless part of one). The
deletion must list every variant and none of the controls, and after it no variant is left
in the store's files; an imported ledger payload never keeps one in the first place.
"""

from __future__ import annotations

import base64
import json
import urllib.parse
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

EMAIL = "Wang.Fang@example-corp.com"
KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c"
PHONE = "138-0013-8000"
SID = "s-var"


def _variants(value: str) -> dict[str, str]:
    raw = value.encode()
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in value)
    return {
        "lower": value.lower(), "upper": value.upper(), "spaced": " ".join(value),
        "line break": value[:8] + "\n" + value[8:], "crlf and indent": value[:8] + "\r\n    " + value[8:],
        "zero width": value[:5] + "\u200b" + value[5:], "fullwidth": fullwidth,
        "url-encoded": urllib.parse.quote(value, safe=""), "url-encoded all": "".join(f"%{b:02X}" for b in raw),
        "base64": base64.b64encode(raw).decode(), "base64 inside": base64.b64encode(b"token=" + raw + b";").decode(),
        "base64 url-safe, wrapped": base64.urlsafe_b64encode(b"x" + raw).decode()[:10] + "\n" +
                                    base64.urlsafe_b64encode(b"x" + raw).decode()[10:],
        "json \\u escapes": "".join(f"\\u{ord(c):04x}" for c in value),
        "html entities": "".join(f"&#{ord(c)};" for c in value), "hex": raw.hex(),
        "spelled out": value.replace("@", " [at] ").replace(".", " dot ") if "@" in value else value.replace("-", " - "),
    }


CONTROLS = ["Wang Fang called", "example-corp.com is down", "sk-live keys rotate monthly", "call 138 later",
            "V2FuZy5GYW5n", "we met at the dot com party"]


def _records() -> tuple[list[dict[str, object]], dict[int, str], list[int]]:
    at = "2025-05-01T00:00:00Z"
    records: list[dict[str, object]] = [
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": at},
        {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user", "at": at,
         "content": f"contact {EMAIL} phone {PHONE} key {KEY}"},
    ]
    copies: dict[int, str] = {}
    seq = 1
    for label, value in (("email", EMAIL), ("key", KEY), ("phone", PHONE)):
        for name, form in _variants(value).items():
            seq += 1
            copies[seq] = f"{label}: {name}"
            records.append({"type": "event", "session": SID, "seq": seq, "kind": "tool_result", "trust": "tool",
                            "at": at, "content": f"copy >> {form} << end"})
    controls = []
    for text in CONTROLS:
        seq += 1
        controls.append(seq)
        records.append({"type": "event", "session": SID, "seq": seq, "kind": "tool_result", "trust": "tool",
                        "at": at, "content": text})
    records.append({"type": "deletion_request", "session": SID, "id": "del-v", "targets": ["evt:1"], "reason": "gdpr"})
    return records, copies, controls


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"INSPECTOR_REVIEWER": "o"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout


def test_every_spelling_of_the_secret_is_listed_and_nothing_else(tmp_path: Path,
                                                                   backend_empty_store: Path | str) -> None:
    records, copies, controls = _records()
    store = backend_empty_store
    assert _run("import", str(write_sif(tmp_path / "v.jsonl", records)), "--into", str(store))[0] == 0
    code, out = _run("deletion", str(store), "del-v", "--json")
    listed = {int(c["id"][4:]) for c in json.loads(out)["copies"] if c["where"] == "events"}
    missed = sorted(name for seq, name in copies.items() if seq not in listed)
    assert missed == [], f"copies not found: {missed}"
    assert not listed & set(controls), "a harmless part of a value is not a copy"


def test_after_delete_no_spelling_is_left_on_disk(tmp_path: Path) -> None:
    records, _copies, _ = _records()
    store = tmp_path / "v.db"
    _run("import", str(write_sif(tmp_path / "v.jsonl", records)), "--into", str(store))
    assert _run("delete", str(store), "del-v", "--json")[0] == 0
    blob = b"".join(p.read_bytes() for p in tmp_path.glob("v.db*"))
    for value in (EMAIL, KEY, PHONE):
        for name, form in _variants(value).items():
            if "\n" not in form and "\u200b" not in form:
                assert form.encode() not in blob, f"{value} as {name} is still in the store's files"
    assert _run("verify", str(store))[0] == 0


def test_an_imported_ledger_payload_keeps_no_encoded_secret(tmp_path: Path) -> None:
    encoded = {"b64": base64.b64encode(EMAIL.encode()).decode(), "hex": EMAIL.encode().hex(),
               "upper": EMAIL.upper(), "id": "evt:3", "hash": "sha256:" + "ab" * 32}
    records = [{"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": "2025-05-01T00:00:00Z"},
               {"type": "ledger", "session": SID, "kind": "harness.note", "actor": "bot", "at": "2025-05-01T00:00:00Z",
                "payload": encoded}]
    store = tmp_path / "l.db"
    assert _run("import", str(write_sif(tmp_path / "l.jsonl", records)), "--into", str(store))[0] == 0
    payload = json.loads(_run("ledger", str(store), "--session", SID, "--json")[1])[0]["payload"]
    assert payload["id"] == "evt:3" and payload["hash"] == encoded["hash"]  # identifiers stay readable
    for name in ("b64", "hex", "upper"):
        assert payload[name].startswith("hmac-sha256:"), f"{name} kept verbatim in the append-only ledger"


def test_deletion_says_what_it_did_not_check(tmp_path: Path) -> None:
    records, _copies, _ = _records()
    store = tmp_path / "v.db"
    _run("import", str(write_sif(tmp_path / "v.jsonl", records)), "--into", str(store))
    listed = json.loads(_run("deletion", str(store), "del-v", "--json")[1])
    assert any("exports and HTML reports" in n for n in listed["not_checked"])
    code, out = _run("delete", str(store), "del-v")
    assert code == 0 and "not checked (copies there may remain)" in out and "outside the store" in out
    assert "no cop" not in out.lower() and "remain" not in out.split("not checked")[0]


def test_a_name_holding_the_secret_makes_delete_refuse_naming_it(tmp_path: Path) -> None:
    records, _copies, _ = _records()
    records.insert(2, {"type": "state", "session": SID, "key": "contact.wang.fang@example-corp.com", "kind": "decision",
                       "value": "call back", "writer": "user", "sources": ["evt:1"], "version": 1})
    records.insert(2, {"type": "material", "session": SID, "id": "res:138 0013 8000", "source_event": 1,
                       "content": "x", "disclosure_scope": "task", "media_type": "text/plain",
                       "retrieved_at": "2025-05-01T00:00:00Z"})
    store = tmp_path / "v.db"
    assert _run("import", str(write_sif(tmp_path / "v.jsonl", records)), "--into", str(store))[0] == 0
    kept = json.loads(_run("deletion", str(store), "del-v", "--json")[1])["kept"]
    assert any(k["name"] == "contact.wang.fang@example-corp.com" and k["what"] == "state key" for k in kept), kept
    assert any(k["name"] == "res:138 0013 8000" and k["what"] == "material id" for k in kept), kept
    before = store.read_bytes()
    code, out = _run("delete", str(store), "del-v", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["refusals"][0]["code"] == "copy_kept" and "status" not in doc
    assert "state key 'contact.wang.fang@example-corp.com'" in doc["refusals"][0]["message"]
    assert store.read_bytes() == before  # nothing removed: never "deleted" while a copy stays


def test_kept_fields_and_typed_reasons_holding_the_secret_are_handled(tmp_path: Path) -> None:
    records, _copies, _ = _records()
    records[0] = {**records[0], "crm_link": f"https://crm.example/contact?mail={EMAIL}"}
    records.insert(2, {"type": "state", "session": SID, "key": "decision.call", "kind": "decision",
                       "value": "call back", "writer": "user", "sources": ["evt:1"], "version": 1})
    store = tmp_path / "v.db"
    assert _run("import", str(write_sif(tmp_path / "v.jsonl", records)), "--into", str(store))[0] == 0
    listed = json.loads(_run("deletion", str(store), "del-v", "--json")[1])
    assert any(c["where"] == "sessions" and c["id"] == f"{SID}.crm_link" for c in listed["copies"]), listed["copies"]
    assert listed["kept"] == []
    assert _run("correct", str(store), "--session", SID, "--key", "decision.call", "--value", "mail instead",
                "--reason", f"she asked by phone {PHONE}", "--reviewer", "o")[0] == 0
    kept = json.loads(_run("deletion", str(store), "del-v", "--json")[1])["kept"]
    assert any(k["where"] == "ledger" and "(correction)" in k["name"] and "reason" in k["why"] for k in kept), kept
