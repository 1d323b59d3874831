"""A converter's original is not encoded and hashed again by the import (domain/known_text.py),
and the shortcut answers only for the very text object it was given."""

from __future__ import annotations

import pytest

from inspector.domain import known_text
from inspector.domain.canonical import content_hash
from inspector.domain.errors import BadInput
from inspector.domain.formats.builder import Builder
from inspector.domain.sif import decode_material


def _original(data: bytes) -> dict:
    builder = Builder("s1", "claude-code", "f.jsonl")
    builder.keep_original(data)
    return builder.records[-1]


def test_an_equal_text_that_is_another_object_gets_no_answer() -> None:
    data = "héllo 😀 wörld".encode() * 100
    text = data.decode("utf-8")
    known_text.remember(text, data, content_hash(data))
    copy = "".join([text[:5], text[5:]])
    assert copy == text and copy is not text
    assert known_text.known(copy) is None
    assert known_text.known(text) == (data, content_hash(data))
    known_text.forget(text)
    assert known_text.known(text) is None


def test_the_import_reads_the_remembered_bytes_once_and_forgets_them() -> None:
    data = '{"a":"ünïcode 😀"}\n'.encode() * 50
    record = _original(data)
    assert known_text.known(record["content"]) == (data, content_hash(data))
    assert decode_material(dict(record), 7) == data
    assert known_text.known(record["content"]) is None  # used once, not held


def test_a_changed_record_is_checked_against_its_hash_as_before() -> None:
    data = '{"a":"ünïcode"}\n'.encode() * 50
    record = _original(data)
    changed = {**record, "content": record["content"].replace("a", "b")}
    with pytest.raises(BadInput) as refused:
        decode_material(changed, 3)
    assert refused.value.code == "hash_mismatch"


def test_at_most_a_few_texts_are_held() -> None:
    texts = [f"text {i} é".encode() for i in range(known_text.HELD + 3)]
    decoded = [t.decode() for t in texts]
    for text, data in zip(decoded, texts, strict=True):
        known_text.remember(text, data, content_hash(data))
    assert known_text.known(decoded[0]) is None
    assert known_text.known(decoded[-1]) is not None
    assert len(known_text._known) == known_text.HELD
