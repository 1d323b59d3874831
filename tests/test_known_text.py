"""A converter's original is not encoded and hashed again by the import (domain/known_text.py),
and the shortcut answers only for the very text object it was given."""

from __future__ import annotations

import pytest

from inspector.domain import known_text
from inspector.domain.canonical import content_hash
from inspector.domain.errors import BadInput
from inspector.domain.formats.builder import Builder, Line
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


def test_a_hash_taken_beside_the_conversion_is_the_one_the_original_gets_once() -> None:
    """A new store's thread hashes a transcript while it converts (store/fresh.py ``_make``); the
    converter's last step takes that hash for that very bytes object instead of hashing again."""
    data = '{"a":"ünïcode"}\n'.encode() * 50
    known_text.remember_hash(data, "sha256:" + "0" * 64)  # not the real one: proves it is taken, not recomputed
    copy = b"".join([data[:1], data[1:]])
    assert copy == data and copy is not data and known_text.take_hash(copy) is None  # an equal copy: no answer
    assert _original(data)["content_hash"] == "sha256:" + "0" * 64
    assert known_text.take_hash(data) is None  # taken once
    assert _original(data)["content_hash"] == content_hash(data)


def test_the_new_stores_thread_remembers_a_transcripts_hash_before_making_the_schema(tmp_path) -> None:  # noqa: ANN001
    from inspector.store import fresh

    data = b'{"type":"user"}\n' * 20
    made = fresh._make(tmp_path / "filling.db", data, True)
    assert made.file_digest is not None and known_text.take_hash(data) == content_hash(data)
    fresh._make(tmp_path / "other.db", data, False)  # a sif file: no converter takes a hash
    assert known_text.take_hash(data) is None
    for i in range(known_text.HELD + 2):
        known_text.remember_hash(bytes([i]), content_hash(bytes([i])))
    assert len(known_text._hashes) == known_text.HELD


def _folded(text: str) -> tuple[dict, dict]:
    builder = Builder("s1", "claude-code", "f.jsonl", fold_threshold=16)
    builder.tool_result("call-1", text, at=None, tool="Read", lines=[Line(1, 0, 10, b"")])
    material, stub = builder.records[-2:]
    return material, stub


def test_a_folded_tool_result_is_not_encoded_nor_hashed_again_when_the_import_checks_it(monkeypatch) -> None:  # noqa: ANN001
    """The converter hashed it for its material and stub; the import's check takes that hash for
    that very text. A changed text is still checked, and a text with a lone surrogate (which
    known_text must never answer for: jsoncodec skips its surrogate check for such a text) is
    not remembered."""
    import inspector.domain.sif as sif

    text = "résultat 😀 " * 40
    material, stub = _folded(text)
    data = text.encode()
    assert material["content"] is text and material["content_hash"] == stub["content_hash"] == content_hash(data)
    assert known_text.known(text) == (data, content_hash(data))
    changed = {**material, "content": text.replace("r", "R")}
    with pytest.raises(BadInput) as refused:
        decode_material(changed, 3)
    assert refused.value.code == "hash_mismatch"
    with monkeypatch.context() as m:
        m.setattr(sif, "content_hash", lambda _: pytest.fail("hashed again"))
        assert decode_material(dict(material), 5) == data
    assert known_text.known(text) is None  # used once, not held
    lone = "bad \ud800 " * 20
    material, _ = _folded(lone)
    assert known_text.known(lone) is None
    assert decode_material(dict(material), 2) == lone.encode("utf-8", "surrogatepass")


def test_folded_results_are_held_up_to_a_byte_budget(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(known_text, "FOLDED_BYTES", 100)
    texts = [f"{i:02d}" * 20 for i in range(5)]  # 40 bytes each
    for text in texts:
        known_text.remember_folded(text, text.encode(), content_hash(text.encode()))
    assert [known_text.known(t) is not None for t in texts] == [False, False, False, True, True]
    assert known_text._folded_bytes == 80
    for text in texts:
        known_text.forget(text)
    assert known_text._folded_bytes == 0 and not known_text._folded
