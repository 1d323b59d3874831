"""Cut characters at a slice's edges are reported, never replaced or dropped."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from inspector.domain.utf8_edges import cut_edges

TEXT = "ab🚀部署节点xyz".encode()  # a(0) b(1) 🚀(2..5) 部(6..8) 署(9..11) …


def test_start_inside_an_emoji_and_end_inside_a_cjk_character() -> None:
    edges = cut_edges(TEXT, 0, 4, 7)  # starts 2 bytes into 🚀, ends 1 byte into 部
    assert edges.cut_head == b"\x9a\x80" and edges.cut_tail == b"\xe9"
    assert edges.text == ""
    assert edges.snap_wider == (2, 9) and edges.snap_narrower == (6, 6)


def test_boundaries_need_no_cut() -> None:
    edges = cut_edges(TEXT, 0, 2, 9)
    assert edges.text == "🚀部" and edges.cut_head == b"" and edges.cut_tail == b""
    assert edges.snap_wider == edges.snap_narrower == (2, 9)


def test_window_offset_is_respected() -> None:
    window = TEXT[1:]
    edges = cut_edges(window, 1, 4, 10)
    assert edges.cut_head == b"\x9a\x80" and edges.text == "部" and edges.cut_tail == b"\xe7"


@given(st.text(min_size=1, max_size=40), st.data())
def test_head_text_tail_is_exactly_the_slice(text: str, data: st.DataObject) -> None:
    raw = text.encode("utf-8")
    start = data.draw(st.integers(0, len(raw)))
    end = data.draw(st.integers(start, len(raw)))
    edges = cut_edges(raw, 0, start, end)
    assert edges.text is not None
    assert edges.cut_head + edges.text.encode("utf-8") + edges.cut_tail == raw[start:end]
    ws, we = edges.snap_wider
    ns, ne = edges.snap_narrower
    assert ws <= start <= ns and ne <= end <= we
    raw[ws:we].decode("utf-8")  # both snaps fall on character boundaries
    raw[ns:ne].decode("utf-8")
