"""The rules' word lists compiled letter first find exactly what they found as written:
every match's start, end and text, on the labelled summaries and on generated text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import inspector.domain.said_scope  # noqa: F401  (compiles its lists)
import inspector.domain.said_scope_wide  # noqa: F401
from inspector.domain.letter_first import COMPILED, letter_first
from tests.verdict_attack_paraphrase_cases import paraphrase_cases

PIECES = ["may", "can", "scan", "any", "many", "all", "also", "too", "it", "its", "only", "just", "not just",
          "no longer restricted", "without any limits", "outside of", "其他", "可以", "也", " ", ".", "\n", "A", "x",
          "ok", "okay", "book", "write", "rewrite", "everything", "every", "them", "there", "one", "访问", "它"]


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(0)) for m in pattern.finditer(text)]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


def _texts() -> list[str]:
    """Every text of the paraphrase attack's 69 cases (summaries, events, records), as written and
    lower-cased (the rules read lower-cased text)."""
    texts = sorted({s for case in paraphrase_cases() for s in _strings(case) if len(s) > 8})
    return texts + [t.lower() for t in texts]


def test_every_list_is_compiled_letter_first() -> None:
    assert len(COMPILED) >= 12


@pytest.mark.parametrize("index", range(len(COMPILED)))
def test_the_labelled_summaries_give_the_same_matches(index: int) -> None:
    source, compiled = COMPILED[index]
    written = re.compile(source)
    for text in _texts():
        assert _spans(compiled, text) == _spans(written, text)
        assert (compiled.search(text) is None) == (written.search(text) is None)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.integers(0, len(COMPILED) - 1))
def test_generated_text_gives_the_same_matches(pieces: list[str], index: int) -> None:
    source, compiled = COMPILED[index]
    text = "".join(pieces)
    assert _spans(compiled, text) == _spans(re.compile(source), text)
    for pos in range(0, len(text), 7):  # a search from inside the text sees the letter before it
        written = re.compile(source).search(text, pos)
        found = compiled.search(text, pos)
        assert (found and found.span()) == (written and written.span())


@pytest.mark.parametrize("source", [r"(?<![a-z])(?:(cap)|x)", r"(?<![a-z])(?:\w+|x)", r"(?:a|b)"])
def test_a_list_it_cannot_rewrite_exactly_is_refused(source: str) -> None:
    with pytest.raises(ValueError):
        letter_first(source)
