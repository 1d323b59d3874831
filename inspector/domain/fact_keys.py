"""A proposed fact's key: readable, stable, unique — and spelling no sensitive value.

A key is ``kind.<slug of the start of the value>.<6 hex>`` and ledger entries list keys for
good, so a key that spelled an e-mail (``goal.later_request.can-you-also-cc-zz-keys-private…``)
kept it after the e-mail's deletion and ``delete`` had to refuse ``copy_kept``
(docs/reviews/untrusted-seven.md). So the slug and the hash are made of the value with every
sensitive value (``deletion.sensitive_values``' patterns: phone, e-mail, ID, card, address,
key) and every run of 7+ digits replaced by a neutral word (``email``, ``number`` …). The hash
suffix is then of that redacted text too — an unkeyed sha256 of the whole value would let
anyone holding the key confirm a guessed e-mail or phone number (24 bits narrow a phone's
10^10 candidates to a few hundred). Two values that differ only in their sensitive values
redact alike: the second (in the order they came) gets ``…\\x00<n>`` in its hash input, so keys
stay unique. A value with no sensitive value keeps the key it always had.
"""

from __future__ import annotations

import hashlib
import re

from inspector.domain.deletion import NUMBER_MIN_DIGITS
from inspector.domain.text_checks import SENSITIVE

_SLUG = re.compile(r"[^\w]+")
_DIGITS = re.compile(rf"\d{{{NUMBER_MIN_DIGITS},}}")
# The word each kind of sensitive value becomes, between markers no log text holds (private
# use characters, not word characters: the slug shows just the word), so a redacted value never
# hashes like a value that spelled the word itself.
_WORDS = {"phone number": "phone", "email address": "email", "national ID number": "id",
          "card or account number": "card", "postal address": "address", "secret key": "key"}
_MARK = "\ue000"
# What a text must hold for a pattern to match there at all, found far faster than the pattern
# (the secret-key one alone took ~0.1-0.8 ms on a 200-character value): a redaction runs for
# each record an import proposes, twice.
_DIGIT = re.compile(r"\d")
_NEEDS = {"phone number": _DIGIT, "national ID number": _DIGIT, "card or account number": _DIGIT,
          "postal address": _DIGIT, "email address": re.compile("@"),
          "secret key": re.compile(r"[A-Za-z0-9_-]{10}")}


def _word(name: str) -> str:
    return f"{_MARK}{name}{_MARK}"


def redact(text: str) -> str:
    """``text`` with every sensitive value and long digit run replaced by a neutral word."""
    for name, pattern in SENSITIVE.items():
        needs = _NEEDS.get(name)
        if needs is None or needs.search(text):
            text = pattern.sub(_word(_WORDS.get(name, "value")), text)
    return _DIGITS.sub(_word("number"), text) if _DIGIT.search(text) else text


def make_key(kind: str, ident: str, nth: int = 0) -> str:
    """The key of a record whose identity, redacted (``redact``, then as ``facts._identity``
    folds it), is ``ident``; ``nth`` > 0 for the nth other record with that redacted identity."""
    tail = ident.rstrip("/").rsplit("/", 1)[-1] if kind == "artifact" else ident
    slug = _SLUG.sub("-", tail.casefold()).strip("-")[:32].strip("-") or kind
    seed = f"{kind}\x00{ident}" + (f"\x00{nth}" if nth else "")
    digest = hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return f"{kind}.{slug}.{digest}"


class KeyMaker:
    """Keys for one set of records: the same redacted identity for two identities gets two keys."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], list[str]] = {}  # (kind, redacted identity) -> identities, in order

    def key(self, kind: str, ident: str, redacted: str) -> str:
        idents = self._seen.setdefault((kind, redacted), [])
        if ident not in idents:
            idents.append(ident)
        return make_key(kind, redacted, idents.index(ident))
