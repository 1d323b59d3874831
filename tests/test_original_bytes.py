"""The import keeps a transcript's original as its bytes, never joined into one text
(domain/known_text.py ``OriginalText``), and stores exactly what the text path stores.

Joining the decoded 4.5 MB bench transcript into one ``str`` cost 10–20 ms of CPU (page faults on
18 MB: one emoji makes every character 4 bytes) for a text nothing in the import reads.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from inspector.domain import known_text
from inspector.domain.canonical import content_hash
from inspector.domain.errors import BadInput
from inspector.domain.formats import builder
from inspector.domain.formats.builder import UTF8_PIECE
from inspector.domain.formats.detect import convert
from inspector.domain.known_text import OriginalText, as_text_record
from inspector.domain.sif import decode_material
from inspector.services import importing
from inspector.services.exporting import export_original
from inspector.services.import_stream import parse_converted
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from inspector.store.jsoncodec import exact_as_is, exact_copy, fast_compact_bytes, fast_loads

SESSION = "5b0d6c1e-0000-4000-8000-00000000abcd"
TABLES = ("sessions", "events", "tool_defs", "materials", "material_chunks", "stubs", "state_records", "actions",
          "summaries", "candidates", "handoffs", "deletion_requests")


def _transcript(lines: int = 260) -> bytes:
    """A Claude Code transcript over 64 KiB (so the original is decoded in pieces) with an emoji,
    accents and a tool result large enough to fold."""
    out = []
    for i in range(lines):
        at = f"2025-06-01T10:{i // 60:02d}:{i % 60:02d}.000Z"
        if i % 2 == 0:
            msg: dict[str, Any] = {"role": "user", "content": f"Étape {i}: keep the 😀 and never touch prod {'x' * 600}"}
        else:
            msg = {"role": "assistant", "content": [{"type": "text", "text": f"réponse {i} ✓ {'y' * 500}"}]}
        out.append({"type": msg["role"], "sessionId": SESSION, "uuid": f"u-{i}", "timestamp": at, "message": msg})
    out.append({"type": "assistant", "sessionId": SESSION, "uuid": "u-call", "timestamp": "2025-06-01T11:00:00.000Z",
                "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Read",
                                                              "input": {"file_path": "/tmp/a"}}]}})
    out.append({"type": "user", "sessionId": SESSION, "uuid": "u-res", "timestamp": "2025-06-01T11:00:01.000Z",
                "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                         "content": "ligne ☃ " * 3000}]}})
    data = "\n".join(json.dumps(r, ensure_ascii=False) for r in out).encode("utf-8") + b"\n"
    assert len(data) > 2 * UTF8_PIECE and not data.isascii()
    return data


def _fingerprint(store_path: Path) -> dict[str, str]:
    found = {}
    with sqlite3.connect(store_path) as db:
        for table in TABLES:
            rows = hashlib.sha256()
            for row in db.execute(f"SELECT * FROM {table} ORDER BY rowid"):
                rows.update(repr(row).encode("utf-8", errors="surrogatepass") + b"\n")
            found[table] = rows.hexdigest()
        ledger = hashlib.sha256()
        for row in db.execute("SELECT session, kind, actor, payload, source, record_digest FROM ledger ORDER BY seq"):
            ledger.update(repr(row).encode("utf-8", errors="surrogatepass") + b"\n")
        found["ledger"] = ledger.hexdigest()
    return found


def _import(source: Path, store_path: Path) -> dict[str, str]:
    with mock.patch("inspector.store.format_upgrade.secrets.token_hex", lambda n: "5a" * n):  # keyed digests repeat
        asyncio.run(import_file(source, store_path, actor="ana"))
    return _fingerprint(store_path)


def test_the_import_never_joins_the_original_into_one_text_and_stores_what_the_text_path_stores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _transcript()
    source = tmp_path / "run.jsonl"
    source.write_bytes(data)
    # the text path, as before: convert decodes the whole original into one text
    text_path = importing.convert
    with monkeypatch.context() as m:
        m.setattr(importing, "convert", lambda *a, **k: text_path(*a, **{**k, "original_text": True}))
        before = _import(source, tmp_path / "text.db")

    joined = builder.utf8_text

    def no_whole_text(piece: bytes) -> str:
        assert len(piece) < len(data), "the whole original was decoded into one text"
        return joined(piece)

    monkeypatch.setattr(builder, "utf8_text", no_whole_text)
    after = _import(source, tmp_path / "bytes.db")
    assert after == before  # every row of every record table and the ledger's payloads

    async def check() -> None:
        async with await open_store(tmp_path / "bytes.db") as store:
            out = tmp_path / "back.jsonl"
            await export_original(store, SESSION, out)
            assert out.read_bytes() == data
            report = await verify_store(store)
            assert report.ok, report

    asyncio.run(check())


def test_the_original_as_bytes_stands_for_exactly_the_text_the_text_path_holds() -> None:
    data = _transcript()
    as_text = convert(data, "run.jsonl", "claude-code", fast_loads)
    as_bytes = convert(data, "run.jsonl", "claude-code", fast_loads, original_text=False)
    original = as_bytes[-1]["content"]
    assert type(original) is OriginalText and original.data is data and original.digest == content_hash(data)
    assert [as_text_record(r) for r in as_bytes] == as_text
    assert type(convert(data, "run.jsonl", "claude-code", fast_loads)[-1]["content"]) is str  # the default: text
    # parsed for the writer: the same records, digests, rows and bytes as the text
    text_rows = parse_converted((as_text, 2, False))
    byte_rows = parse_converted((as_bytes, 2, False))
    assert [(r.type, r.line, r.identity, r.digest, r.payload, r.row) for r in byte_rows] == \
        [(r.type, r.line, r.identity, r.digest, r.payload, r.row) for r in text_rows]


def test_a_file_that_is_not_utf8_is_kept_as_base64_either_way() -> None:
    data = _transcript().replace("✓".encode(), b"\xff", 1)
    as_text = convert(data, "run.jsonl", "claude-code", fast_loads)
    as_bytes = convert(data, "run.jsonl", "claude-code", fast_loads, original_text=False)
    assert as_bytes == as_text and as_bytes[-1]["encoding"] == "base64"


def test_a_changed_original_is_refused_by_its_hash_and_only_the_import_path_takes_it_as_text() -> None:
    data = _transcript()
    record = convert(data, "run.jsonl", "claude-code", fast_loads, original_text=False)[-1]
    assert decode_material(dict(record), 9) == data
    # other bytes than the record declares (its content_hash is the converted file's): refused
    changed = {**record, "content": OriginalText(data + b"\n", content_hash(data + b"\n"))}
    with pytest.raises(BadInput) as refused:
        decode_material(changed, 4)
    assert refused.value.code == "hash_mismatch"
    with pytest.raises(BadInput):  # an original is UTF-8 text; declared as base64 it is refused
        decode_material({**record, "encoding": "base64"}, 4)
    # the copy a sif/1 line would read back is text: exact_copy never hands the stand-in on
    assert exact_copy(record) is None
    assert exact_as_is(record) == (record, True)
    # a material the walk cannot take as it is (a float beside it) is written with its text and read back
    odd = {**record, "weight": 0.5}
    assert json.loads(fast_compact_bytes(as_text_record(odd)))["content"] == data.decode("utf-8")
    parsed = parse_converted(([odd], 2, False))
    assert parsed[0].payload == data and parsed[0].record["content"] == data.decode("utf-8")
    assert known_text.as_text_record({"content": "x"}) == {"content": "x"}


def test_a_followed_tail_is_not_decoded_into_one_text_for_the_original_it_drops(monkeypatch: pytest.MonkeyPatch) -> None:
    """``convert_tail`` drops the converter's own original (the follower keeps the tail's bytes as
    the next segment itself): it is kept as bytes meanwhile, and the records are the same."""
    from inspector.domain.formats.tail import Resume, convert_tail

    tail = _transcript()
    resume = Resume("claude-code", SESSION, "run.jsonl", offset=100, line=3, seq=5, generation=0)
    joined = builder.utf8_text

    def no_whole_text(piece: bytes) -> str:
        assert len(piece) < len(tail), "the whole tail was decoded into one text"
        return joined(piece)

    with monkeypatch.context() as m:
        m.setattr(builder, "utf8_text", no_whole_text)
        as_bytes = convert_tail(tail, resume)
    assert as_bytes == convert_tail(tail, resume) and len(as_bytes) > 200
    assert not builder.ORIGINAL_AS_BYTES.get()  # set for the tail's conversion only
