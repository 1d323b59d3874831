"""A file of only blank lines or NUL bytes is refused as empty; one other byte anywhere makes
it a file to read. not_a_text_file searches instead of stripping (a stripped copy of a large
transcript cost an import tens of milliseconds), so its answer is checked here against the
definition, on files of every mix of those bytes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from inspector.domain.formats.builder import BOM
from inspector.domain.formats.detect import not_a_text_file

_BYTES = st.lists(st.sampled_from([b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c", b"\x00", b"x", b"\xff"]), max_size=40)


@given(parts=_BYTES, bom=st.booleans())
def test_empty_exactly_when_only_blank_or_nul(parts: list[bytes], bom: bool) -> None:
    body = b"".join(parts)
    data = (BOM if bom else b"") + body
    if not data:
        return  # "empty": its own sentence, tested with the importer's fuzz cases
    problem = not_a_text_file(data, "f.jsonl")
    if not body.strip():
        assert problem is not None and "only blank lines" in problem.message
    elif not body.strip(b"\x00 \t\r\n"):
        assert problem is not None and "only NUL bytes" in problem.message
    else:
        assert problem is None


def test_a_text_byte_after_megabytes_of_blanks_is_read() -> None:
    assert not_a_text_file(b"\n" * 5_000_000 + b"{}", "f.jsonl") is None
    assert not_a_text_file(b"\x00" * 5_000_000 + b"\n", "f.jsonl") is not None
