"""A secret cut in two is still the secret: finding a value split across two records.

A model streams ``sk-live-4f9a`` in one assistant event and ``8b7c6d…`` in the next; a tool
call's input ends with the start of a key whose rest opens the result; a summary ends with
half a phone number and a folded tool result (a material) starts with the other half. No
record alone holds the value, so matching record by record (domain/deletion.py,
deletion_forms.py) misses it, and a deletion would report "done" while both halves stay.

What is found: a *sensitive* value of the targets (phone, e-mail, ID, card, address, key:
:data:`~inspector.domain.text_checks.SENSITIVE`) whose folded form (deletion_forms.fold:
case, spacing, escapes, fullwidth) is spelled by the *end* of one text and the *start* of
another — both parts at least :data:`MIN_PART` characters, or of any length when the two
texts are neighbours (consecutive events, a call and its result, an event and the material
it observed, two fields of one event). A number is also matched by its digits alone, so
``138-0013-`` + ``8000`` and ``138 0013`` + ``8000`` are the same number.

What is not (said in deletion.NOT_CHECKED): a line of the targets that is not a sensitive
value, split; a split with other text between the parts; three or more parts; a split part
base64- or hex-encoded — between consecutive events those are read by
domain/deletion_split_spelled.py (round eleven), which joins them. Lines of ordinary prose end and start with common words, so a
split of one would be found by coincidence in any long log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from inspector.domain.deletion_forms import MIN_FOLDED, fold, turned_forms
from inspector.domain.number_copies import CHINESE_DIGITS
from inspector.domain.text_checks import SENSITIVE

MIN_PART = 4  # a part this long on each side, between any two texts of the session
EDGE = 4096  # characters of a text's start and end read (an escaped value may be 8x its length)
_SEPARATORS = re.compile(r"[\-\u2010-\u2015.·()/+_,:\u3001]")
_CHINESE_DIGITS = str.maketrans({c: str(d) for c, d in CHINESE_DIGITS.items()})


def _digits(text: str) -> str:
    """``text`` with separators left out and Chinese numerals read as digits (一三九 is 139)."""
    return _SEPARATORS.sub("", text).translate(_CHINESE_DIGITS)


def split_forms(values: Iterable[str]) -> list[str]:
    """The forms of ``values`` a split is looked for in: each folded value, ROT13-ed and reversed
    (deletion_forms.turned_forms), and a number's digits alone, also reversed (separators left out,
    so a reformatted number split in two is found)."""
    out: set[str] = set()
    for value in values:
        key = fold(value)
        if len(key) >= MIN_FOLDED:
            out |= {key, *turned_forms(key)}
        digits = _digits(key)
        if sum(ch.isdigit() for ch in digits) >= MIN_FOLDED and len(digits) >= MIN_FOLDED:
            out |= {digits, digits[::-1]}
    return sorted(out)


def straddling(left: str, right: str) -> list[str]:
    """Sensitive values spelled only by ``left``'s end joined to ``right``'s start (neither
    alone holds them): a target cut in the middle of a secret names the whole secret."""
    left, right = left[-EDGE:], right[:EDGE]
    if _ends_with_a_value(left) or _starts_with_a_value(right):
        return []
    joined, cut = left + right, len(left)
    found = []
    for pattern in SENSITIVE.values():
        found += [m.group(0).strip() for m in pattern.finditer(joined) if m.start() < cut < m.end()]
    return sorted({f for f in found if f})


# The start of an escape at a text's end: %, %4, \\u00, \\x4, &#6, &comm, =4 (deletion_forms.decoded).
_ESCAPE_START = re.compile(r"(?:%[0-9A-Fa-f]?|%[uU][0-9A-Fa-f]{0,3}|\\+(?:u[0-9A-Fa-f]{0,3}|U[0-9A-Fa-f]{0,7}"
                           r"|x[0-9A-Fa-f]?|u\{[0-9A-Fa-f]{0,5}|[0-3][0-7]?)?|&#?[0-9A-Za-z]{0,7}|=[0-9A-F]?)$")

# Between a value and the text's edge: spaces and separators (a phone number then " -").
_EDGE_GAP = re.compile(r"[\s\-\u2010-\u2015.,;:·/]*")


def _ends_with_a_value(text: str) -> bool:
    """Whether ``text`` ends with a whole sensitive value of its own. The patterns' runs of name
    characters and digits read on into whatever follows: ``…@example.org`` + ``write to…`` was
    the "value" ``…@example.orgwrite``, a phone number ``13800138000`` + ``2024-05-01 notes`` a
    card number — and their parts then matched any text ending with the address and any text
    starting with ``write`` or that date, so a deletion of the address took unrelated events
    with it. A value whole in one text is that text's, not a split one."""
    return any(_EDGE_GAP.fullmatch(text, m.end()) for p in SENSITIVE.values() for m in p.finditer(text))


def _starts_with_a_value(text: str) -> bool:
    return any(_EDGE_GAP.fullmatch(text, 0, m.start()) for p in SENSITIVE.values() for m in p.finditer(text))


@dataclass(frozen=True, slots=True)
class Piece:
    """One text of a record: ``owner`` names the record (``evt:3``, ``res:x``, ``gen:2``)."""

    owner: str
    text: str


@dataclass(slots=True)
class SplitFinder:
    """Finds records whose text ends with the start of a value while another's starts with its rest."""

    forms: list[str]
    _ends: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    _starts: dict[str, list[tuple[str, int]]] = field(default_factory=dict)

    _most: int = 0

    def __post_init__(self) -> None:
        self._most = max((len(f) for f in self.forms), default=0)  # asked for each text's edges: computed once
        for form in self.forms:
            for k in range(1, len(form)):
                self._ends.setdefault(form[:k], []).append((form, k))
                self._starts.setdefault(form[k:], []).append((form, k))

    def __bool__(self) -> bool:
        return bool(self.forms)

    @property
    def _longest(self) -> int:
        return self._most

    def _edges(self, text: str) -> tuple[list[str], list[str]]:
        # an escaped character (``&#65307;``) is at most 8 times its length; spaces fold away
        edge = min(EDGE, 10 * self._longest + 64)
        head, tail = fold(text[:edge]), fold(text[-edge:])
        return [head, _digits(head)], [tail, _digits(tail)]

    def pairs(self, pieces: list[Piece], neighbours: set[frozenset[str]]) -> list[tuple[str, str, str]]:
        """``(first owner, second owner, form)`` for every split found: the first text's end and
        the second's start spell ``form``. Two owners in ``neighbours`` (or one owner's two texts)
        need a part of one character; any other two need :data:`MIN_PART` on each side."""
        if not self.forms:
            return []
        longest = self._longest
        ending: dict[tuple[str, int], set[int]] = {}
        starting: dict[tuple[str, int], set[int]] = {}
        for index, piece in enumerate(pieces):
            if not piece.text:
                continue
            heads, tails = self._edges(piece.text)
            for tail in tails:
                for n in range(1, min(len(tail), longest - 1) + 1):
                    for hit in self._ends.get(tail[-n:], ()):
                        ending.setdefault(hit, set()).add(index)
            for head in heads:
                for n in range(1, min(len(head), longest - 1) + 1):
                    for hit in self._starts.get(head[:n], ()):
                        starting.setdefault(hit, set()).add(index)
        found: dict[tuple[str, str], str] = {}
        for (form, k), enders in ending.items():
            starters = starting.get((form, k))
            if not starters:
                continue
            wide = min(k, len(form) - k) >= MIN_PART
            for a in enders:
                for b in starters:
                    if a == b:
                        continue
                    first, second = pieces[a].owner, pieces[b].owner
                    near = first == second or frozenset((first, second)) in neighbours
                    if wide or near:
                        found.setdefault((first, second), form)
        for a, b, form in self._cut_escapes(pieces, neighbours):
            found.setdefault((a, b), form)
        return [(a, b, form) for (a, b), form in sorted(found.items())]

    def _cut_escapes(self, pieces: list[Piece], neighbours: set[frozenset[str]]) -> list[tuple[str, str, str]]:
        """Neighbours whose texts spell a value only once joined, because one ends inside an escape
        (``…person%`` + ``40example.org``, ``…\\u00`` + ``40…``): each edge folded alone cannot
        decode it. Rare, so only a text ending with an escape's start is joined to its neighbours."""
        out: list[tuple[str, str, str]] = []
        edge = min(EDGE, 10 * self._longest + 64)
        cut = [p for p in pieces if p.text and _ESCAPE_START.search(p.text[-12:])]
        if not cut:
            return out
        near: dict[str, set[str]] = {}
        for pair in neighbours:
            for owner in pair:
                near.setdefault(owner, set()).update(pair - {owner})
        by_owner: dict[str, list[Piece]] = {}
        for piece in pieces:
            by_owner.setdefault(piece.owner, []).append(piece)
        for piece in cut:
            tail = piece.text[-edge:]
            for second in (p for owner in sorted(near.get(piece.owner, ())) for p in by_owner.get(owner, ())):
                if not second.text:
                    continue
                head = second.text[:edge]
                joined, alone = fold(tail + head), (fold(tail), fold(head))
                form = next((f for f in self.forms if f in joined and not any(f in t for t in alone)), None)
                if form is not None:
                    out.append((piece.owner, second.owner, form))
        return out
