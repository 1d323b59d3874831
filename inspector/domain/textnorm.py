"""One normal form for every verdict that compares words with a summary.

Verdicts (drift findings, survival) say "appears in the summary" after normalising case,
white space, Unicode (NFC), typographic quotes and disguises (invisible characters,
fullwidth and look-alike letters: ``disguise.py``); positions they report are offsets in
this normal form. Sentences and clauses are cut here too, so every rule agrees on what
"near" means.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.disguise import undisguise

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ",
                         "\u3000": " ", "\uff08": "(", "\uff09": ")"})
_QUOTE_LIST = "\u2018\u2019\u201c\u201d\u00a0\u3000\uff08\uff09"
_OTHER_SPACE = re.compile(r"[^\S ]")  # white space other than a plain space
# A sentence ends at 。！？ or at . ! ? followed by white space (so "res:run-184", "a.py"
# and "v1.2" stay whole), and at every line break (lists, headings).
# Written to open with the character set, so the engine skips in C every position that
# holds none of them (a run of 。！？!?, a "." before white space or the end, a run of line breaks).
# A "?" or "!" inside a quote that the sentence goes on after ("the request 'can you …
# later?' was dropped") ends no sentence (verdict-six: a quoted question hid what the sentence
# said about it).
_SENTENCE_END = re.compile(r"[。！？!?.\n](?:(?<=[。！？!?])(?![\'\"]\s+[a-z])[。！？!?]*|(?<=\.)(?=\s|$)|(?<=\n)\n*)")
_CLAUSE_END = re.compile(r"[，,；;：:、]|\s[-–—]\s|\bbut\b|\bwhile\b|\bwhereas\b|但是|但|而")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_ASCII_WORD = re.compile(r"[a-z0-9][a-z0-9_./-]*[a-z0-9]|[a-z0-9]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def _plain(text: str) -> tuple[str, bool]:
    """NFC, typographic quotes made plain, case-folded; and whether its white space is
    already normal (no white space but single inner spaces), when nothing needs collapsing."""
    if text.isascii():  # already NFC, no typographic quote, and casefold is lower
        text = text.lower()
    else:
        # Zero-width characters, fullwidth letters and look-alike letters hide a word from
        # the rules but not from a reader (disguise.py).
        text = undisguise(unicodedata.normalize("NFC", text))
        # translate is slow on non-ASCII text and most texts have none of these; a search
        # per character is ~3× faster than one character-class search of the text.
        if any(ch in text for ch in _QUOTE_LIST):
            text = text.translate(_QUOTES)
        text = text.casefold()
    spaced = _OTHER_SPACE.search(text) is None and "  " not in text and text[:1] != " " and text[-1:] != " "
    return text, spaced


def norm(text: str) -> str:
    """NFC, case-folded, typographic quotes made plain, white space collapsed to one space."""
    text, spaced = _plain(text)
    # str.split() cuts at exactly the characters ``\s`` matches, and drops the ends.
    return text if spaced else " ".join(text.split())


# A hard-wrapped sentence: a line that does not end a sentence (nor a heading, label or
# table row) followed by a line going on in lower case. "That restriction was\nlifted."
# is one sentence to a reader, so it is one to the rules.
# A line opening with a short label ("active: false", "constraints:") is a field of its own, not
# the rest of the sentence above (YAML and rendered JSON, verdict-five).
_WRAPPED = re.compile(r"(?<=[a-zA-Z0-9,;)\"'])[ \t]*\r?\n[ \t]*(?=[a-z])(?![a-z][a-z _-]{0,30}:(?:\s|$))")


def norm_keep_lines(text: str) -> str:
    """Like ``norm`` but line breaks stay (they end sentences in lists and headings), except
    inside a hard-wrapped sentence."""
    if "\n" in text:
        text = _WRAPPED.sub(" ", text)
    text, spaced = _plain(text)
    return text if spaced else "\n".join(" ".join(line.split()) for line in text.splitlines())


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    text: str


def sentences(text: str) -> list[Span]:
    """Sentences of already-normalised text (``norm_keep_lines``), with their offsets."""
    out: list[Span] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() > start:
            chunk = text[start:m.end()]
            if chunk.strip():
                out.append(Span(start, m.end(), chunk))
        start = m.end()
    if start < len(text) and text[start:].strip():
        out.append(Span(start, len(text), text[start:]))
    return out


def clauses(sentence: Span) -> list[Span]:
    """Clauses of one sentence (cut at commas, colons, semicolons, "but"/"但是")."""
    out: list[Span] = []
    start = 0
    for m in _CLAUSE_END.finditer(sentence.text):
        if m.start() > start:
            out.append(Span(sentence.start + start, sentence.start + m.start(), sentence.text[start:m.start()]))
        start = m.end()
    if start < len(sentence.text):
        out.append(Span(sentence.start + start, sentence.end, sentence.text[start:]))
    return [c for c in out if c.text.strip()]


STOPWORDS = frozenset(
    "a an the and or of to in on at for with by from is are was were be been being it its this that these those "
    "we you i he she they them our your my me us as into than then so if not no yet still has have had do does did "
    "will would should can could may might must also just only all any some each both either more most very there "
    "here what which who whom when where why how about after before again further once up down out over under "
    "please need needs needed todo pending open".split())


def terms(text: str) -> list[str]:
    """Content terms of a phrase: ASCII words (not stop words) and CJK bigrams, in order."""
    t = norm(text)
    out = [w for w in _ASCII_WORD.findall(t) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]
    for run in _CJK_RUN.findall(t):
        if len(run) == 1:
            continue
        out += [run[i:i + 2] for i in range(len(run) - 1)]
    return out


@lru_cache(maxsize=8192)
def phrase_parts(phrase: str) -> tuple[str, frozenset[str]]:
    """A phrase's normal form and content terms (the same few values and alternatives are
    asked about in every sentence of every generation)."""
    return norm(phrase), frozenset(terms(phrase))


def mentions(text_norm: str, phrase: str, *, share: float = 0.6) -> bool:
    """True when ``phrase`` appears in ``text_norm`` verbatim (normalised) or when at least
    ``share`` of its content terms do. ``text_norm`` must already be normalised."""
    p, ts = phrase_parts(phrase)
    if not p:
        return False
    if p in text_norm:
        return True
    if not ts:
        return False
    return sum(1 for term in ts if term in text_norm) >= max(1, share * len(ts))


def occurrences(text: str, needle: str) -> list[int]:
    """Every offset where ``needle`` starts in ``text`` (overlapping ones included)."""
    out: list[int] = []
    pos = text.find(needle)
    while pos >= 0:
        out.append(pos)
        pos = text.find(needle, pos + 1)
    return out


def find_word(text_norm: str, word: str, start: int = 0) -> int:
    """Offset of ``word`` in normalised text, as a whole word for ASCII words, -1 if absent."""
    w = norm(word)
    if not w:
        return -1
    if CJK.search(w) or not w[0].isalnum():
        return text_norm.find(w, start)
    # The first occurrence with no word character (``\w``: alphanumeric or "_") on either
    # side; str.find, not a regular expression starting with a look-behind, which would be
    # tried at every position of a long summary.
    pos = text_norm.find(w, start)
    while pos >= 0:
        end = pos + len(w)
        if (pos == 0 or not _word_char(text_norm[pos - 1])) and (end == len(text_norm) or not _word_char(text_norm[end])):
            return pos
        pos = text_norm.find(w, pos + 1)
    return -1


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def find_value(text_norm: str, value_norm: str, start: int = 0) -> int:
    """Offset of a protected value in normalised text where it stands whole: a value that
    ends (or starts) with a digit is not found inside a longer number or word — "port
    8080" is not in "port 80801", "batch size 100" not in "batch size 1000", "3.1" not in
    "3.11", "3.1.4" or "3.1-rc1" — since a reader sees another value there. A value that ends
    in a path is not found inside a longer one: "/srv/billing/data" is not in
    "/srv/billing/database", "…/data-old", "…/data.bak" or "…/data/../etc" (verdict-four); a
    sub-path ("…/data/2026") is found. -1 if absent. Other values are found as they are
    (``bounded`` says which need the rule)."""
    if not value_norm:
        return -1
    pos = text_norm.find(value_norm, start)
    if pos < 0:
        return -1
    first, last = value_norm[0], value_norm[-1]
    check_start, check_end = _ascii_digit(first), _ascii_digit(last)
    path_end = not check_end and _path_end(value_norm)
    zone_end = not check_end and not path_end and _zone_end(value_norm)
    if not (check_start or check_end or path_end or zone_end):
        return pos
    size = len(text_norm)
    while pos >= 0:
        end = pos + len(value_norm)
        ok = True
        if check_start and pos > 0:
            before = text_norm[pos - 1]
            ok = not (_ascii_alnum(before) or before == "_"
                      or (first.isdigit() and before in ".," and pos > 1 and text_norm[pos - 2].isdigit()))
        if ok and check_end and end < size:
            after = text_norm[end]
            ok = not (_ascii_alnum(after) or after == "_"
                      or (last.isdigit() and after in ".," and end + 1 < size and text_norm[end + 1].isdigit())
                      or (after == "-" and _VERSION_TAIL.match(text_norm, end + 1) is not None))
        if ok and path_end and end < size:
            ok = _PATH_GOES_ON.match(text_norm, end) is None
        if ok and zone_end and end < size:
            ok = _ZONE_GOES_ON.match(text_norm, end) is None  # "09:00 utc" is not in "09:00 utc+8"
        if ok:
            return pos
        pos = text_norm.find(value_norm, pos + 1)
    return -1


_QUICK_BEFORE = frozenset(" \n(\"'[:：，,;；、“‘（")
_QUICK_AFTER = frozenset(" \n;:)]\"'!?。，；：、”’）")


def bounded(value_norm: str) -> bool:
    """Whether the value starts or ends with a digit or ends in a path, so that ``find_value``'s
    boundary rule applies (for any other value, ``value_norm in text_norm`` is the answer)."""
    return _ascii_digit(value_norm[:1]) or _ascii_digit(value_norm[-1:]) or _path_end(value_norm) or _zone_end(value_norm)


# After a number: "-rc1", "-beta", "-8090" make another version or a range ("3.11-rc", "8080-8090").
_VERSION_TAIL = re.compile(r"\d|(?:rc|alpha|beta|dev|pre|post|snapshot|nightly)(?![a-z])")
# After a path: more of its last segment ("data" → "database", "data-old", "data_v2", "data.bak",
# "data~") or a step out of it ("data/../etc"); "/" then a name is a sub-path and stays found.
_PATH_GOES_ON = re.compile(r"[a-z0-9_~-]|\.[a-z0-9_~]|/\.\.")


_ZONE_END = re.compile(r"\d(?::\d{2})?\s*(?:utc|gmt)$")
_ZONE_GOES_ON = re.compile(r"[a-z0-9_]|[+-]\d")


def _zone_end(value_norm: str) -> bool:
    """Whether the value ends in a time and its zone ("… at 09:00 utc"): "utc+8" is another zone."""
    return value_norm.endswith(("utc", "gmt")) and _ZONE_END.search(value_norm) is not None


def _path_end(value_norm: str) -> bool:
    """Whether the value's last word is a path ("only write to /srv/billing/data") ending in a
    letter or digit: a reader takes "/srv/billing/database" for another path, not a plural."""
    if not value_norm or not _ascii_alnum(value_norm[-1]):
        return False
    word = value_norm.rsplit(" ", 1)[-1]
    return "/" in word and not word.startswith(("http://", "https://"))


def holds_value(text_norm: str, value_norm: str) -> bool:
    """Whether the normalised text holds the value whole (``find_value``). Asked for every
    protected key in every generation: the common case — the value found between spaces
    or punctuation — is answered without the full boundary rules."""
    if not bounded(value_norm):
        return value_norm in text_norm if value_norm else False
    pos = text_norm.find(value_norm)
    if pos < 0 or not value_norm:
        return False
    end = pos + len(value_norm)
    if (pos == 0 or text_norm[pos - 1] in _QUICK_BEFORE) and (end == len(text_norm) or text_norm[end] in _QUICK_AFTER):
        return True
    return find_value(text_norm, value_norm, pos) >= 0


def _ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _ascii_digit(ch: str) -> bool:
    return ch.isascii() and ch.isdigit()
