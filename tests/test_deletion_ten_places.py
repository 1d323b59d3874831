"""A deleted value in the spellings round ten looks for, in every kind of record a session holds
(docs/reviews/deletion-ten.md).

Before: a copy of the target's e-mail or phone number in CSS escapes (``\\40 ``, ``\\000040``), UTF-7
(``+AEA-``, IMAP's ``&AEA-``), base32, base85 or Ascii85, with a separator between every letter
(``z.q...h.i.d``), base64 or hex of the value ROT13-ed or reversed, or a number in words ("one three
nine…", 一百三十九亿…) was said in ``not_checked`` and not looked for: ``delete`` said "done" with it
left in the store. Now each is listed with the spelling it was found in, and removed: the store's
file and log hold none afterwards, no index keeps a term of it, ``search`` finds none, ``verify``
passes and an export holds none.
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
from tests.test_deletion_nine_places import _forms, _stored_bytes

AT = "2025-05-01T00:00:00Z"
SID = "s-ten"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# Each spelling: the text, the record that holds it, and the spelling the listing must name.
SPELLED = {
    "css escape with its space in a tool call's input": (MAIL.replace("@", "\\40 "), ("events", "evt:2"), "CSS escapes"),
    "english digit words in a tool result": ("call one three nine, one two three four, five six seven eight",
                                             ("events", "evt:3"), "a number in English words"),
    "base64 of the rot13 value in thinking": (_b64(codecs.encode(MAIL, "rot13").encode()), ("events", "evt:4"),
                                              "base64 of the value ROT13-ed"),
    "base32 in an event": (base64.b32encode(b"mail: " + MAIL.encode()).decode(), ("events", "evt:5"), "base32"),
    "base64 of the reversed value in an event": (_b64(MAIL[::-1].encode()), ("events", "evt:6"),
                                                 "base64 of the value reversed"),
    "chinese place value in an event": ("号码是一百三十九亿一千二百三十四万五千六百七十八", ("events", "evt:7"),
                                        "a number in Chinese place-value numerals"),
    "capitalised digit words with dashes in an event": ("One-Three-Nine One-Two-Three-Four Five-Six-Seven-Eight",
                                                        ("events", "evt:8"), "a number in English words"),
    "base85 in a material": (base64.b85encode(b"To: " + MAIL.encode()).decode(), ("materials", "res:page"), "base85"),
    "css six-digit escape in a stub outline": (MAIL.replace("@", "\\000040"), ("stubs", "stub-page"), "CSS escapes"),
    "a dot between every letter in a fact": (".".join(MAIL), ("state", "constraint.contact@v1"),
                                             "a separator between every letter"),
    "ascii85 in an action": (base64.a85encode(MAIL.encode() + b"\n").decode(), ("actions", "a1"), "Ascii85"),
    "utf-7 in a summary": (MAIL.replace("@", "+AEA-"), ("summaries", "gen:1"), "UTF-7"),
    "every character css-escaped in a summary's open questions": ("".join(f"\\{ord(c):x} " for c in MAIL),
                                                                  ("summaries", "gen:1"), None),
    "a dash between every letter in a candidate": ("-".join(MAIL), ("candidates", "cand-1"),
                                                   "a separator between every letter"),
    "imap utf-7 in a handoff": (MAIL.replace("@", "&AEA-"), ("handoffs", "h-1"), "UTF-7"),
    "hex of the reversed value in another request's reason": (MAIL[::-1].encode().hex(), ("deletion_requests", "del-2"),
                                                              "hex of the value reversed"),
}
HARMLESS = {
    "another address in utf-7": "zq.other.person+AEA-example.net",
    "plus signs in code and arithmetic": "a+b+c = x+y+z; c++ and +AAA- here, +1 555",
    "css with other escapes": ".icon\\:hover::after { content: '\\2014 ' } .a\\31 0",
    "another number in english words": "one two three four five six seven eight nine",
    "chinese place value in prose": "三千五百万元的预算，一百三十九个人，一千二百三十四万五千六百七十九",
    "single letters with separators": "a.b.c.d.e.f.g.h and i-j-k-l-m-n-o",
    "base32 of another address": base64.b32encode(b"zq.other.person@example.net").decode(),
    "base64 of another address reversed": _b64(b"zq.other.person@example.net"[::-1]),
}


def _records() -> list[dict]:
    s = {name: text for name, (text, _copy, _how) in SPELLED.items()}
    event = {"type": "event", "session": SID, "trust": "model", "at": AT}
    return [
        {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
        {"type": "tool_def", "session": SID, "name": "send", "definition_hash": "sha256:" + "a" * 64},
        {**event, "seq": 1, "kind": "user_message", "trust": "user", "content": f"call me on {PHONE} or mail {MAIL}"},
        {**event, "seq": 2, "kind": "tool_call", "call_id": "c1", "tool": "send",
         "args": {"to": s["css escape with its space in a tool call's input"]}},
        {**event, "seq": 3, "kind": "tool_result", "trust": "tool", "call_id": "c1", "tool": "send",
         "content": s["english digit words in a tool result"]},
        {**event, "seq": 4, "kind": "assistant_message", "content": "ok",
         "reasoning_content": s["base64 of the rot13 value in thinking"]},
        {**event, "seq": 5, "kind": "assistant_message", "content": s["base32 in an event"]},
        {**event, "seq": 6, "kind": "assistant_message", "content": s["base64 of the reversed value in an event"]},
        {**event, "seq": 7, "kind": "assistant_message", "content": s["chinese place value in an event"]},
        {**event, "seq": 8, "kind": "assistant_message", "content": s["capitalised digit words with dashes in an event"]},
        *({**event, "seq": 9 + n, "kind": "assistant_message", "content": text}
          for n, text in enumerate(HARMLESS.values())),
        {"type": "material", "session": SID, "id": "res:page", "source_event": 3, "disclosure_scope": "task",
         "content": f"page body {s['base85 in a material']} end", "media_type": "text/plain", "retrieved_at": AT},
        {"type": "stub", "session": SID, "id": "stub-page", "material": "res:page", "read_slice": [0, 4],
         "disclosure_scope": "task", "outline": s["css six-digit escape in a stub outline"]},
        {"type": "state", "session": SID, "key": "constraint.contact", "kind": "constraint",
         "value": s["a dot between every letter in a fact"], "writer": "user", "sources": ["evt:1"], "version": 1},
        {"type": "action", "session": SID, "id": "a1", "intent": s["ascii85 in an action"], "status": "unknown"},
        {"type": "summary", "session": SID, "generation": 1, "text": s["utf-7 in a summary"], "covers": [1, 8],
         "base_version": 1, "unresolved": [s["every character css-escaped in a summary's open questions"]],
         "sources": ["evt:2"]},
        {"type": "candidate", "session": SID, "id": "cand-1", "base_version": 1, "goal_revision": 1,
         "exact_fields": {}, "open_actions": [], "unknowns": [], "summary": s["a dash between every letter in a candidate"],
         "sources": ["evt:2"]},
        {"type": "handoff", "session": SID, "id": "h-1", "to_session": "next", "goal_revision": 1,
         "context_version": 1, "material": {"goal": s["imap utf-7 in a handoff"]}, "tool_mapping": {}},
        {"type": "deletion_request", "session": SID, "id": "del-2", "targets": ["evt:3"], "requested_by": "user",
         "reason": s["hex of the reversed value in another request's reason"]},
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "remove my details"},
    ]


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "s.db"
    source = write_sif(tmp_path / "in.jsonl", _records())
    result = CliRunner().invoke(cli, ["import", str(source), "--into", str(store)])
    assert result.exit_code == 0, result.output
    source.unlink()
    return store


def _index_terms_left(store: Path, texts: list[str]) -> list[tuple[str, str]]:
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
            left += [(index, t) for t in terms for text in texts
                     if len(t) >= 3 and t in text.casefold() and t not in kept.casefold()]
        assert indexes, "the search indexes were built"
    return left


def test_every_spelling_is_listed_with_its_spelling_and_no_harmless_text(tmp_path: Path) -> None:
    store = _store(tmp_path)
    listing = CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"])
    assert listing.exit_code == 0, listing.output
    body = json.loads(listing.stdout)
    listed = {(c["where"], c["id"]): c for c in body["copies"]}
    assert [name for name, (_t, copy, _h) in SPELLED.items() if copy not in listed] == [], listing.stdout
    said = {name: listed[copy]["spelling"] for name, (_t, copy, how) in SPELLED.items() if how is not None}
    assert said == {name: how for name, (_t, _c, how) in SPELLED.items() if how is not None}
    assert listed[("events", "evt:1")]["spelling"] is None  # the target itself: a copy by reference
    harmless = {f"evt:{9 + n}" for n in range(len(HARMLESS))}
    assert {ident for where, ident in listed if where == "events"} & harmless == set()
    checked = " ".join(body["checked"])  # what "no copies" reaches, said with it
    for word in ("CSS escapes", "UTF-7", "base32", "base85", "Ascii85", "between every letter", "English digit words",
                 "place value", "base64 or hex of the value ROT13-ed or reversed"):
        assert word in checked, word
    not_checked = " ".join(body["not_checked"])
    for said_before in ("CSS escapes, UTF-7, numbers in words", "a value with a separator between every letter",
                        "ROT13 or reversal encoded again"):  # main's "… are not looked for"
        assert said_before not in not_checked, said_before


def test_the_human_listing_says_each_spelling(tmp_path: Path) -> None:
    store = _store(tmp_path)
    listing = CliRunner().invoke(cli, ["deletion", str(store), "del-1"])
    assert listing.exit_code == 0, listing.output
    for how in ("CSS escapes", "UTF-7", "base32", "base85", "Ascii85", "a number in English words"):
        assert f"written another way: {how}" in listing.output, how


def test_after_the_deletion_no_spelling_is_left_anywhere(tmp_path: Path) -> None:
    store = _store(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["search", str(store), "hidden", "--session", SID]).exit_code in (0, 1)  # indexes built
    done = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["status"] == "done", done.output
    data = _stored_bytes(store)
    texts = {name: text for name, (text, _c, _h) in SPELLED.items()}
    assert [name for name, text in texts.items() if any(f in data for f in _forms(text))] == []
    assert all(any(f in data for f in _forms(text)) for text in HARMLESS.values())  # the rest is still there
    assert _index_terms_left(store, list(texts.values())) == []
    assert runner.invoke(cli, ["verify", str(store)]).exit_code == 0
    for query in (MAIL, PHONE, "hidden.person+AEA-", "person&AEA-example", "person\\40 example", "one three nine", "一百三十九亿",
                  "z.q...h.i", "z-q-.-h", base64.b32encode(b"mail: " + MAIL.encode()).decode()[:16]):
        found = runner.invoke(cli, ["search", str(store), query, "--session", SID, "--json"])
        assert found.exit_code == 0 and json.loads(found.stdout)["hits"] == [], (query, found.stdout)
    export = tmp_path / "out.jsonl"
    assert runner.invoke(cli, ["export", str(store), "--output", str(export)]).exit_code == 0
    written = export.read_bytes()
    assert [name for name, text in texts.items() if any(f in written for f in _forms(text))] == []
