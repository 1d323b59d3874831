"""A value cut in two (or three) across neighbouring records, in any spelling a deletion reads.

domain/deletion_split.py finds a sensitive value whose folded form (or a number's digits) is
spelled by one text's end and another's start. A part written another way was not found (said in
``not_checked`` until round eleven): a base64 run cut in two across two streamed events, a phone
number's English words over two tool results ("one three nine one two" + "three four five six…"),
half an address CSS-escaped, or three events each holding a third. Here neighbouring records are
read *joined* — the end of one, the whole of a short middle one, the start of the next — with the
one question every scan asks (domain/deletion_spelling.spelled_in), and a value found only in the
join is a split copy, in whatever spelling the join names.

Only neighbours (consecutive events of the log, read in order; and, read both ways, :func:`pair_splits`:
a tool call and its result with other events between, an event and a material it observed — the
caller decides), and only as much of each as the longest *sensitive* value (phone, e-mail, ID, card,
address, key) spelled out needs. The join must spell a whole value — no part is ever compared alone,
which is what makes a split line of prose a coincidence in deletion_split.py — so a line of the
targets short enough to fit in the join is found cut too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# The characters of each neighbour's edge joined: the longest sensitive value encoded (base64 of UTF-16
# is 2.7 characters a character, hex 2, a digit in words ~5 for a number's shorter run) and some slack.
# Each pair of events is read once joined, so this sets the check's cost; a part spelled longer (every
# character escaped as ``&#NNNNN;``) is not found cut (said in not_checked).
_SLACK = 32
_SCALE = 3


@dataclass(frozen=True, slots=True)
class Link:
    """One record's text, in the log's order."""

    owner: str
    text: str


def edge_for(longest: int) -> int:
    """How much of each neighbour is read joined, for values at most ``longest`` characters long."""
    return _SCALE * longest + _SLACK


def joined_splits(chain: list[Link], spelled: Callable[[str], str | None], longest: int) -> list[tuple[tuple[str, ...], str]]:
    """``(owners, spelling)`` for each run of two or three neighbouring records of ``chain`` whose
    texts joined spell a value that no one of them spells alone (at their joined edges)."""
    edge = edge_for(longest)
    out: list[tuple[tuple[str, ...], str]] = []
    alone: dict[int, bool] = {}

    def holds(index: int) -> bool:  # the record's own edges hold a whole value: not read as a part
        if index not in alone:
            text = chain[index].text
            alone[index] = bool(text) and (spelled(text[:edge]) is not None or spelled(text[-edge:]) is not None)
        return alone[index]

    for i in range(len(chain) - 1):
        left, right = chain[i].text[-edge:], chain[i + 1].text[:edge]
        if not left or not right:
            continue
        how = spelled(left + right)
        if how is not None and not holds(i) and not holds(i + 1):
            out.append(((chain[i].owner, chain[i + 1].owner), how))
            continue
        middle = chain[i + 1].text
        # three parts: a middle record no longer than a value's part can be (base64 of it, with some slack)
        if i + 2 < len(chain) and middle and len(middle) <= 2 * longest + 16 and chain[i + 2].text:
            how = spelled(left + middle + chain[i + 2].text[:edge])
            if how is not None and not holds(i) and not holds(i + 1) and not holds(i + 2) \
                    and spelled(middle + chain[i + 2].text[:edge]) is None and spelled(left + middle) is None:
                out.append(((chain[i].owner, chain[i + 1].owner, chain[i + 2].owner), how))
    return out


def pair_splits(pairs: list[tuple[Link, Link]], spelled: Callable[[str], str | None],
                longest: int) -> list[tuple[tuple[str, ...], str]]:
    """``(owners, spelling)`` for each pair of neighbouring records that are not next to each other in
    the log (a call and its result further on, an event and a material it observed), joined either way
    round: which of the two was written first is not known."""
    edge = edge_for(longest)
    out: list[tuple[tuple[str, ...], str]] = []
    for a, b in pairs:
        if not a.text or not b.text:
            continue
        for first, second in ((a, b), (b, a)):
            left, right = first.text[-edge:], second.text[:edge]
            how = spelled(left + right)
            if how is not None and spelled(left) is None and spelled(right) is None \
                    and spelled(first.text[:edge]) is None and spelled(second.text[-edge:]) is None:
                out.append(((first.owner, second.owner), how))
                break
    return out
