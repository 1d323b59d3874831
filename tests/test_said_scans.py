"""``Said``'s faster scans find exactly what the plain scans find.

Two speed-ups of the verdict rules rest on an argument rather than on a measurement: a word
list restricted to the words whose first character a text holds matches that text exactly
as the whole list does, and a sentence-local list (no word holds a sentence end) scanned
from the start of a span's sentence gives the same matches in the span as one scan of the
whole text. A rule's finding hangs on these matches, so both are checked here against the
plain way, on every labelled summary, every category the rules use, and every sentence and
clause span (the spans the rules ask about).
"""

from __future__ import annotations

import random
from bisect import bisect_right

import pytest

from bench.drift_precision import load_items
from inspector.domain import wordlists
from inspector.domain.said import Said, _word_char
from inspector.domain.wordlists import Hit, wordlist

CATEGORIES = ["aim", "back_reference", "blanket_failure", "blanket_open", "choice_word", "constraint", "contrast",
              "done", "exception", "negation", "not_done", "permission", "rejected_alternative", "reported", "rule",
              "uncertain", "weakening", ("negation", "weakening"), ("negation", "weakening", "exception"),
              ("negation", "weakening", "permission"), ("negation", "weakening", "exception", "permission")]
EXTRA = ["P95: passed. Not all pending items are done.\n\nThe constraint was lifted; 不得修改生产库，不过现在可以改了。",
         "don't stop. no longer applies!? 已通过。。可以随便改了 \n- done\n- still open",
         "x" * 50 + ". Okay, it's fine now. ok. o.k. 可以\n\n\n先不做。"]


def _texts() -> list[str]:
    return [item["summary"]["text"] for item in load_items()] + EXTRA


def _plain_hits(category: str | tuple[str, ...], text: str, start: int, end: int) -> list[Hit]:
    """What ``Said.hits`` answered before the speed-ups: the whole list, one scan of the
    whole text, the span's share of it, or a scan of the span alone where a match crosses
    the span or the span's end splits a word."""
    whole = wordlist(category).hits(text)
    starts = [h.start for h in whole]
    if start == 0 and end == len(text):
        return whole
    found: list[Hit] | None = []
    for h in whole[max(0, bisect_right(starts, start) - 1):]:
        if h.end <= start:
            continue
        if h.start >= end:
            break
        if h.start < start or h.end > end:
            found = None
            break
        found.append(h)
    if found is not None and 0 < end < len(text) and _word_char(text[end - 1]) and _word_char(text[end]):
        found = None
    return wordlist(category).hits(text, start, end) if found is None else found


@pytest.mark.parametrize("category", CATEGORIES, ids=str)
def test_every_span_holds_the_matches_the_plain_scan_finds(category: str | tuple[str, ...]) -> None:
    checked = 0
    for raw in _texts():
        said = Said.of(raw)
        text = said.text
        # The whole text last: until it is scanned whole, spans of a sentence-local list are
        # answered by scans from their sentence's start.
        spans = [(s.start, s.end) for s in said.sentences]
        spans += [(c.start, c.end) for s in said.sentences for c in said.clauses(s)]
        # And arbitrary spans, which may cut words and matches (the answer must hold for any span).
        rnd = random.Random(len(text))
        spans += [tuple(sorted((rnd.randrange(len(text) + 1), rnd.randrange(len(text) + 1)))) for _ in range(20)]
        spans.append((0, len(text)))
        for start, end in spans:
            assert said.hits(category, start, end) == _plain_hits(category, text, start, end), (raw, start, end)
            checked += 1
        whole = wordlist(category)
        assert (said.words(category).first(text) is None) == (whole.first(text) is None)
    assert checked > 1000


@pytest.mark.parametrize("category", CATEGORIES, ids=str)
def test_a_list_restricted_to_what_a_text_holds_matches_as_the_whole_list(
        category: str | tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wordlists, "_WORTH", 1)  # every restriction compiled at once,
    monkeypatch.setattr(wordlists, "_KEPT", 10**6)  # however many,
    monkeypatch.setattr(wordlists, "_RESTRICTED", {})  # and none kept from other tests
    whole = wordlist(category)
    restricted = 0
    for raw in _texts()[::3] + EXTRA:
        said = Said.of(raw)
        words = said.words(category)
        restricted += words is not whole
        assert set(words.words) <= set(whole.words)
        assert words.hits(said.text) == whole.hits(said.text), raw
    assert restricted > 0 or not whole.words  # (blanket_* lists are patterns only)


# Lists whose own patterns open with \b or ^ (the engine cannot skip by first character there;
# they are asked only of a clause a done word or a claim already picked).
OPENS_ANYWHERE = {"blanket_failure", "blanket_open", "constraint_imperative", "choice"}


def test_every_whole_text_word_list_lets_the_engine_skip_positions_by_their_first_character() -> None:
    """A list asked of every generation's whole text ("done", the cancelling words) must keep
    every alternative opening with a plain character: one alternative opening with a group or
    an assertion (the ticked-box pattern did) makes the engine try every alternative at every
    position, which made the Drift tab's done scan four times slower."""
    compiler = pytest.importorskip("re._compiler")
    parser = pytest.importorskip("re._parser")
    for category in [c for c in CATEGORIES if c not in OPENS_ANYWHERE] + ["goal_change", "lifted"]:
        pattern = wordlist(category).pattern
        assert pattern is not None
        parsed = parser.parse(pattern.pattern, pattern.flags)
        assert compiler._get_charset_prefix(parsed, pattern.flags) or compiler._get_literal_prefix(
            parsed, pattern.flags)[0], category


@pytest.mark.parametrize(("text", "ticked"), [("- [x] P95 to measure", True), ("- [X] P95", True), ("[x] done", True),
                                              ("a[x] b", False), ("][x] b", False), ("- [x]P95", False),
                                              ("- [ ] P95", False)])
def test_a_ticked_box_is_a_done_mark_only_on_its_own(text: str, ticked: bool) -> None:
    said = Said.of(text)
    assert any(h.word.casefold() == "[x]" for h in said.hits("done", 0, len(said.text))) is ticked
