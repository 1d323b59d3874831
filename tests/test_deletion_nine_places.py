"""A deleted value written in this round's spellings, in every kind of record a session holds
(hostile review nine, docs/reviews/deletion-nine.md).

Before: a copy of the target's e-mail or phone number in quoted-printable (``=40``, a soft line
break), base64 of its UTF-16 bytes, base64 of its base64, Chinese numerals (一三九… / 壹叁玖…),
ROT13 or reversed, ``%252540`` (percent-encoded three times), ``\\u{40}``, ``\\100`` or ``%u0040``
was not listed — in a tool call's input, a summary, a fact, a material, a stub, an action, a
candidate, a handoff or another request's reason — and ``delete`` said "done" with it left in the
store. Now each is listed and removed: the store's file and log hold none of them afterwards,
``search`` finds none, ``verify`` passes and an export holds none.
"""

from __future__ import annotations

import base64
import codecs
import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
SID = "s-nine"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _mime(data: bytes) -> str:
    encoded = _b64(b"From: someone\r\nTo: " + data + b"\r\n\r\n" + b"body " * 30)
    return "\r\n".join(encoded[i:i + 76] for i in range(0, len(encoded), 76))


CN = str.maketrans("0123456789", "〇一二三四五六七八九")
CN_FINANCE = str.maketrans("0123456789", "零壹贰叁肆伍陆柒捌玖")
# Each spelling, the record that holds it, and the copy the listing must name.
SPELLED = {
    "qp soft break in a tool call's input": "zq.hidden.pe=\r\nrson=40example.org",
    "base64 of utf-16le in a summary": _b64(MAIL.encode("utf-16-le")),
    "chinese numerals in a fact": "电话 一三九 一二三四 五六七八",
    "rot13 in a material": codecs.encode(MAIL, "rot13"),
    "triple percent-encoded in a stub outline": MAIL.replace("@", "%252540"),
    "js code point escape in an action": MAIL.replace("@", "\\u{40}"),
    "octal escape in a candidate": MAIL.replace("@", "\\100"),
    "%u escape in a handoff": MAIL.replace("@", "%u0040"),
    "financial numerals in another request's reason": PHONE.translate(CN_FINANCE),
    "reversed number in thinking": f"think: {PHONE[::-1]}",
    "base64 of base64 in an event": _b64(_b64(MAIL.encode()).encode()),
    "mime-wrapped utf-16be in an event": _mime(MAIL.encode("utf-16-be")),
    "reversed e-mail in a summary's open questions": MAIL[::-1],
    "underscored number in a tool result": "ref 139_1234_5678",
    "yao for one, spaced, in an event": " ".join(PHONE.translate(CN)).replace("一", "幺"),
    "hex of utf-16le in an event": MAIL.encode("utf-16-le").hex(),
    "upper-case base64 in a tool call's input": _b64(MAIL.upper().encode()),
}
HARMLESS = {
    "another number in chinese numerals": "一三九一二三四五六七九",
    "the phone's digits in another order": "13912345687",
    "qp of another address": "zq.other.human=40example.net",
    "rot13 of another address": codecs.encode("zq.other.person@example.org", "rot13"),
    "an assignment that looks like qp": "x=3139 token=AB12CD mode=2E",
    "chinese prose with numerals": "我们一起看了三四个方案，五六天后再定",
}


def _records() -> list[dict]:
    s = SPELLED
    event = {"type": "event", "session": SID, "trust": "model", "at": AT}
    records = [
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
        {"type": "tool_def", "session": SID, "name": "send", "definition_hash": "sha256:" + "a" * 64},
        {**event, "seq": 1, "kind": "user_message", "trust": "user", "content": f"call me on {PHONE} or mail {MAIL}"},
        {**event, "seq": 2, "kind": "tool_call", "call_id": "c1", "tool": "send",
         "args": {"to": s["qp soft break in a tool call's input"],
                  "auth": s["upper-case base64 in a tool call's input"]}},
        {**event, "seq": 3, "kind": "tool_result", "trust": "tool", "call_id": "c1", "tool": "send",
         "content": s["underscored number in a tool result"]},
        {**event, "seq": 4, "kind": "assistant_message", "content": "ok",
         "reasoning_content": s["reversed number in thinking"]},
        {**event, "seq": 5, "kind": "assistant_message", "content": s["base64 of base64 in an event"]},
        {**event, "seq": 6, "kind": "assistant_message", "content": s["mime-wrapped utf-16be in an event"]},
        {**event, "seq": 7, "kind": "assistant_message", "content": s["yao for one, spaced, in an event"]},
        {**event, "seq": 8, "kind": "assistant_message", "content": s["hex of utf-16le in an event"]},
        *({**event, "seq": 9 + n, "kind": "assistant_message", "content": text}
          for n, text in enumerate(HARMLESS.values())),
        {"type": "material", "session": SID, "id": "res:page", "source_event": 3, "disclosure_scope": "task",
         "content": f"page body {s['rot13 in a material']} end", "media_type": "text/plain", "retrieved_at": AT},
        {"type": "stub", "session": SID, "id": "stub-page", "material": "res:page", "read_slice": [0, 4],
         "disclosure_scope": "task", "outline": s["triple percent-encoded in a stub outline"]},
        {"type": "state", "session": SID, "key": "constraint.contact", "kind": "constraint",
         "value": s["chinese numerals in a fact"], "writer": "user", "sources": ["evt:1"], "version": 1},
        {"type": "action", "session": SID, "id": "a1", "intent": s["js code point escape in an action"],
         "status": "unknown"},
        {"type": "summary", "session": SID, "generation": 1, "text": s["base64 of utf-16le in a summary"],
         "covers": [1, 8], "base_version": 1, "unresolved": [s["reversed e-mail in a summary's open questions"]],
         "sources": ["evt:2"]},
        {"type": "candidate", "session": SID, "id": "cand-1", "base_version": 1, "goal_revision": 1,
         "exact_fields": {}, "open_actions": [], "unknowns": [], "summary": s["octal escape in a candidate"],
         "sources": ["evt:2"]},
        {"type": "handoff", "session": SID, "id": "h-1", "to_session": "next", "goal_revision": 1,
         "context_version": 1, "material": {"goal": s["%u escape in a handoff"]}, "tool_mapping": {}},
        {"type": "deletion_request", "session": SID, "id": "del-2", "targets": ["evt:3"], "requested_by": "user",
         "reason": s["financial numerals in another request's reason"]},
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "remove my details"},
    ]
    return records


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "s.db"
    source = write_sif(tmp_path / "in.jsonl", _records())
    result = CliRunner().invoke(cli, ["import", str(source), "--into", str(store)])
    assert result.exit_code == 0, result.output
    source.unlink()
    return store


def _stored_bytes(store: Path) -> bytes:
    return b"".join(Path(f"{store}{part}").read_bytes() for part in ("", "-wal") if Path(f"{store}{part}").exists())


def _forms(text: str) -> list[bytes]:
    """The spelling as the store may hold it: as written, JSON-escaped, and each line of it."""
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    return [f.encode() for f in {text, escaped, *(line for line in text.splitlines() if len(line) >= 8)}]


def _index_terms_left(store: Path) -> list[tuple[str, str]]:
    """Search-index terms (FTS5 shadow tables, read through fts5vocab) found only in the removed
    spellings: an index keeping them would still answer a search for the value."""
    with sqlite3.connect(store) as con:
        kept = " ".join(str(c) for (c,) in con.execute("SELECT content FROM events")).casefold()
        kept += " ".join(bytes(d).decode("utf-8", "replace") for (d,) in con.execute("SELECT data FROM material_chunks"))
        indexes = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%fts5%'")]
        left = []
        for index in indexes:
            con.execute(f"CREATE VIRTUAL TABLE temp.v_{index} USING fts5vocab(main, {index}, row)")
            terms = {str(t) for (t,) in con.execute(f"SELECT term FROM temp.v_{index}")}
            left += [(index, t) for t in terms for text in SPELLED.values()
                     if len(t) >= 3 and t in text.casefold() and t not in kept.casefold()]
        assert indexes, "the search indexes were built"
    return left


def test_every_spelling_is_listed_and_no_harmless_text(tmp_path: Path) -> None:
    store = _store(tmp_path)
    listing = CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"])
    assert listing.exit_code == 0, listing.output
    listed = {(c["where"], c["id"]) for c in json.loads(listing.stdout)["copies"]}
    expected = {
        "qp soft break in a tool call's input": ("events", "evt:2"),
        "upper-case base64 in a tool call's input": ("events", "evt:2"),
        "underscored number in a tool result": ("events", "evt:3"),
        "reversed number in thinking": ("events", "evt:4"),
        "base64 of base64 in an event": ("events", "evt:5"),
        "mime-wrapped utf-16be in an event": ("events", "evt:6"),
        "yao for one, spaced, in an event": ("events", "evt:7"),
        "hex of utf-16le in an event": ("events", "evt:8"),
        "rot13 in a material": ("materials", "res:page"),
        "triple percent-encoded in a stub outline": ("stubs", "stub-page"),
        "chinese numerals in a fact": ("state", "constraint.contact@v1"),
        "js code point escape in an action": ("actions", "a1"),
        "base64 of utf-16le in a summary": ("summaries", "gen:1"),
        "octal escape in a candidate": ("candidates", "cand-1"),
        "%u escape in a handoff": ("handoffs", "h-1"),
        "financial numerals in another request's reason": ("deletion_requests", "del-2"),
    }
    assert [name for name, copy in expected.items() if copy not in listed] == [], listing.stdout
    checked = " ".join(json.loads(listing.stdout)["checked"])  # what "no copies" reaches, said with it
    assert all(word in checked for word in ("quoted-printable", "UTF-16", "ROT13", "reversed", "Chinese numerals"))
    harmless = {f"evt:{9 + n}" for n in range(len(HARMLESS))}
    assert {ident for where, ident in listed if where == "events"} & harmless == set()


def test_after_the_deletion_no_spelling_is_left_anywhere(tmp_path: Path) -> None:
    store = _store(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["search", str(store), "hidden", "--session", SID]).exit_code in (0, 1)  # indexes built
    done = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["status"] == "done", done.output
    assert json.loads(done.stdout)["checked"] == json.loads(
        runner.invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)["checked"]
    data = _stored_bytes(store)
    left = [name for name, text in SPELLED.items() if any(f in data for f in _forms(text))]
    assert left == []
    assert all(any(f in data for f in _forms(text)) for text in HARMLESS.values())  # the rest is still there
    assert _index_terms_left(store) == []
    assert runner.invoke(cli, ["verify", str(store)]).exit_code == 0
    for query in (MAIL, PHONE, "rson=40example.org", codecs.encode(MAIL, "rot13"), MAIL[::-1], "139_1234_5678",
                  "壹叁玖壹", "幺 三 九"):
        found = runner.invoke(cli, ["search", str(store), query, "--session", SID, "--json"])
        assert found.exit_code == 0 and json.loads(found.stdout)["hits"] == [], (query, found.stdout)
    export = tmp_path / "out.jsonl"
    assert runner.invoke(cli, ["export", str(store), "--output", str(export)]).exit_code == 0
    written = export.read_bytes()
    assert [name for name, text in SPELLED.items() if any(f in written for f in _forms(text))] == []
