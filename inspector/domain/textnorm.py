"""One normal form for every verdict that compares words with a summary.

Verdicts (drift findings, survival) say "appears in the summary" after normalising case,
white space, Unicode (NFC) and typographic quotes; positions they report are offsets in
this normal form. Sentences and clauses are cut here too, so every rule agrees on what
"near" means.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ",
                         "\u3000": " ", "\uff08": "(", "\uff09": ")"})
_SPACE = re.compile(r"\s+")
# A sentence ends at 。！？ or at . ! ? followed by white space (so "res:run-184", "a.py"
# and "v1.2" stay whole), and at every line break (lists, headings).
_SENTENCE_END = re.compile(r"[。！？!?]+|\.(?=\s|$)|\n+")
_CLAUSE_END = re.compile(r"[，,；;：:、]|\s[-–—]\s|\bbut\b|\bwhile\b|\bwhereas\b|但是|但|而")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_ASCII_WORD = re.compile(r"[a-z0-9][a-z0-9_./-]*[a-z0-9]|[a-z0-9]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def norm(text: str) -> str:
    """NFC, case-folded, typographic quotes made plain, white space collapsed to one space."""
    text = unicodedata.normalize("NFC", text).translate(_QUOTES).casefold()
    return _SPACE.sub(" ", text).strip()


def norm_keep_lines(text: str) -> str:
    """Like ``norm`` but line breaks stay (they end sentences in lists and headings)."""
    text = unicodedata.normalize("NFC", text).translate(_QUOTES).casefold()
    return "\n".join(_SPACE.sub(" ", line).strip() for line in text.splitlines())


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


def mentions(text_norm: str, phrase: str, *, share: float = 0.6) -> bool:
    """True when ``phrase`` appears in ``text_norm`` verbatim (normalised) or when at least
    ``share`` of its content terms do. ``text_norm`` must already be normalised."""
    p = norm(phrase)
    if not p:
        return False
    if p in text_norm:
        return True
    ts = set(terms(phrase))
    if not ts:
        return False
    return sum(1 for term in ts if term in text_norm) >= max(1, share * len(ts))


def find_word(text_norm: str, word: str, start: int = 0) -> int:
    """Offset of ``word`` in normalised text, as a whole word for ASCII words, -1 if absent."""
    w = norm(word)
    if not w:
        return -1
    if CJK.search(w) or not w[0].isalnum():
        return text_norm.find(w, start)
    pattern = re.compile(r"(?<![\w])" + re.escape(w) + r"(?![\w])")
    m = pattern.search(text_norm, start)
    return m.start() if m else -1
