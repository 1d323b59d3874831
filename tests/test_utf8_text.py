"""A transcript's original decoded in pieces is the same text, refused alike (formats/builder.utf8_text).

The original is kept as a material whose text is the whole file decoded; decoding it in
newline-ended pieces is faster on real files (docs/benchmarks.md, session 12), and must give
exactly ``data.decode("utf-8")`` — or fail exactly when it fails, so an undecodable file is still
kept as base64.
"""

from __future__ import annotations

import random

import pytest

from inspector.domain.formats import builder
from inspector.domain.formats.builder import Builder, utf8_text

PARTS = [b"plain ascii", b"\n", b"\n\n", "caf\u00e9".encode(), "\u4e2d\u6587".encode(), "\U0001f916".encode(),
         b"\xff", b"\xe4\xb8", b"\x80", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\r\n", b'{"a":"x"}']


def _decoded(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _ours(data: bytes) -> str | None:
    try:
        return utf8_text(data)
    except UnicodeDecodeError:
        return None


@pytest.mark.parametrize("piece", [1, 3, 8, 64])
def test_random_files_decode_as_the_whole_does(piece: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(builder, "UTF8_PIECE", piece)
    rng = random.Random(piece)
    for _ in range(3000):
        data = b"".join(rng.choice(PARTS) for _ in range(rng.randint(0, 30)))
        assert _ours(data) == _decoded(data), data


def test_a_sequence_cut_by_a_newline_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(builder, "UTF8_PIECE", 2)
    for data in (b"ab\xe4\xb8\n\xadcd", b"ab\n\x80cd\n", b"abcd\xf0\x9f\xa4\n"):
        with pytest.raises(UnicodeDecodeError):
            utf8_text(data)


def test_a_real_sized_file_with_an_emoji_is_the_same_text() -> None:
    line = ('{"type":"user","text":"' + "x" * 900 + '"}\n').encode()
    data = line * 200 + "\U0001f916 \u4e2d\u6587\n".encode() + line * 200 + b"\xc3\xa9\n" + line * 100
    assert len(data) > 4 * builder.UTF8_PIECE
    assert utf8_text(data) == data.decode("utf-8")
    with pytest.raises(UnicodeDecodeError):
        utf8_text(data + b"\xff")


@pytest.mark.parametrize("data", [b'{"a":"\xc3\xa9"}\n' * 10_000, b'{"a":"\xff"}\n' * 10_000])
def test_the_kept_original_is_the_decoded_file_or_base64(data: bytes) -> None:
    b = Builder("s", "claude-code", "f.jsonl")
    b.keep_original(data)
    original = b.records[-1]
    if _decoded(data) is None:
        assert original["encoding"] == "base64"
    else:
        assert (original["encoding"], original["content"]) == ("utf-8", data.decode("utf-8"))


@pytest.mark.parametrize("piece", [1, 3, 8, 64])
def test_the_check_without_the_text_refuses_exactly_what_decoding_refuses(piece: int,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``check_utf8`` (the import's original: proved UTF-8, never joined into one text) raises
    exactly when ``data.decode("utf-8")`` would, so a file is kept as text or base64 alike."""
    monkeypatch.setattr(builder, "UTF8_PIECE", piece)
    rng = random.Random(1000 + piece)
    for _ in range(3000):
        data = b"".join(rng.choice(PARTS) for _ in range(rng.randint(0, 30)))
        try:
            builder.check_utf8(data)
        except UnicodeDecodeError:
            assert _decoded(data) is None, data
        else:
            assert _decoded(data) is not None, data
