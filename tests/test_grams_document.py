"""The short-query index's document of a text is every distinct character and adjacent pair, exactly.

``ci_grams`` (inspector/store/grams.py) was made faster in session 19 (index-speed). Stores
indexed by the older code are checked by ``verify`` against what this code rebuilds (each
gram's events and each event's gram count, ``events_grams_docsize``), and a deletion takes an
entry out by giving FTS5 the same document again: a document with one gram more or less would
make an older store fail verify, or corrupt its index on delete. So the document is compared
here, as FTS5 reads it (the index's own tokenizer: its terms and its token count), with the
definition written out plainly, over the texts that differ in how Python builds them: empty,
one character, ASCII, Latin-1, CJK, astral characters, combining marks, NUL and controls,
whitespace runs, repeated pairs.
"""

from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.store import grams

TOKENIZER = "unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'"


def plainly(text: str) -> str:
    """The definition: each character, and each pair of adjacent characters, once."""
    found = {text[i] for i in range(len(text))} | {text[i:i + 2] for i in range(len(text) - 1)}
    return " ".join(sorted(found))


def as_fts_reads_it(documents: list[str]) -> tuple[list[tuple[str, int]], list[tuple[int, bytes]]]:
    """(term, document) pairs and each document's stored token count, in an index made as ``events_grams``."""
    con = sqlite3.connect(":memory:")
    try:
        con.execute(f"CREATE VIRTUAL TABLE g USING fts5(grams, content='', detail=none, tokenize=\"{TOKENIZER}\")")
        con.execute("CREATE VIRTUAL TABLE v USING fts5vocab(g, instance)")
        con.executemany("INSERT INTO g (rowid, grams) VALUES (?, ?)", enumerate(documents, 1))
        terms = con.execute("SELECT term, doc FROM v ORDER BY term, doc").fetchall()
        sizes = con.execute("SELECT id, sz FROM g_docsize ORDER BY id").fetchall()
        return terms, sizes
    finally:
        con.close()


HOSTILE = [
    "", "a", "ab", "aa", "aaa", "abab", "Ab aB", "  ", " a ", "a\nb\r\nc\td", "a\0b\0", "\x01\x02\x03",
    "café café", "ÀÉÎ õü ß", "订单导出失败，订单", "订", "日本語のテキスト", "😀😀x😀", "𝔘𝔫𝔦", "e\u0301e\u0301",
    "a\u200bb\ufeffc", "مرحبا بالعالم", "x" * 5000, "订单" * 3000, "mixed 订单 and ascii" * 50,
]


def test_the_document_is_every_character_and_pair_once() -> None:
    for text in HOSTILE:
        document = grams.grams(text)
        assert document is not None
        assert sorted(document.split(" ")) == sorted(plainly(text).split(" ")) or " " in text, repr(text[:40])
    assert grams.grams(None) is None


def test_fts_reads_the_same_terms_and_counts_as_from_the_definition() -> None:
    assert as_fts_reads_it([grams.grams(t) or "" for t in HOSTILE]) == as_fts_reads_it([plainly(t) for t in HOSTILE])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("aAbé 订单\n\t\0😀,.\u0301"), max_size=40), min_size=1, max_size=8))
def test_any_text_gives_the_definitions_grams(texts: list[str]) -> None:
    assert as_fts_reads_it([grams.grams(t) or "" for t in texts]) == as_fts_reads_it([plainly(t) for t in texts])


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_characters_give_the_definitions_set(text: str) -> None:
    made = grams.grams(text)
    assert made is not None
    if " " not in text:  # a space inside a gram would split it here; the FTS comparison covers those
        assert set(made.split(" ")) - {""} == set(plainly(text).split(" ")) - {""}
