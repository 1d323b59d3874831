"""Telling a value a deletion removed when it arrives again, without keeping the value.

A deletion removes every copy the store holds when it runs. A transcript that is still being
followed can write the same phone number again a minute later: the next poll imported it as
one more event, and nothing said that a value a carried-out request removed was back in the
store (docs/reviews/untrusted-seven.md). The deletion's ledger entry cannot keep the values
(DESIGN rule 2), so it keeps a keyed digest of each one's normal form (:func:`fingerprints`);
each later import digests the values its new events hold the same way (:func:`held`) and
names every event whose digest matches a done request's — a later copy, which that request
did not and cannot cover (a new request removes it).

What matches: a sensitive value (phone, e-mail, ID, card, address, key: however its digits
are separated or spaced, in any case) or a whole line of 16+ characters of the targets,
repeated as a line or a sensitive value of the new event's text, tool arguments or other
fields — also spelled in another script's digits, with marks on its digits or with look-alike
letters (``١٣٩…``, ``zq.hіdden@…``: each text is read a second time in its plain spelling,
deletion_forms.plain_spelling, hostile review eight). A copy written another way (base64, an
escape, split across events) or a target line embedded in a longer line is not recognised from a
digest; ``deletion`` lists it while the request is pending, not after.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from inspector.domain.deletion import NUMBER_MIN_DIGITS, secret_values
from inspector.domain.deletion_forms import plain_spelling

PREFIX = "deleted-value:"  # so a value's fingerprint never equals another keyed digest of the same text
_NUMBERISH = re.compile(r"[0-9\uff10-\uff19\s\-\u2010-\u2015.·()/+]+")
_SPACE = re.compile(r"\s+")


def normal(value: str) -> str:
    """The form two spellings of one value share: a number's digits alone (ASCII), else the
    text case-folded with its white space removed."""
    if _NUMBERISH.fullmatch(value):
        digits = "".join(str(int(ch)) for ch in value if ch.isdigit())
        if len(digits) >= NUMBER_MIN_DIGITS:
            return digits
    return _SPACE.sub("", value.casefold())


def fingerprints(values: Iterable[str], digest: Callable[[str], str]) -> list[str]:
    """The keyed digests a deletion keeps of the values it removed, sorted, each once."""
    return sorted({digest(PREFIX + normal(v)) for v in values if normal(v)})


def held(texts: list[str], digest: Callable[[str], str]) -> set[str]:
    """The fingerprints of every value ``texts`` hold, as :func:`fingerprints` makes them: as written,
    and in the plain spelling of a text that has another (the fingerprints kept are unchanged, so a
    deletion carried out before still matches)."""
    texts = [t for t in texts if t]
    written = set(texts)
    respelled = [p for p in (plain_spelling(t) for t in texts if not t.isascii()) if p not in written]
    return set(fingerprints(secret_values(texts + respelled), digest))
