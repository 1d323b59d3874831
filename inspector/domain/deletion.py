"""What a deletion request must cover (DESIGN §2 "deletion"), found by value.

A target (``evt:N`` or a material id) has copies: the row itself, its search-index entry,
materials observed by that event, and every other place that repeats what the target
held — found by *value*, not only by reference, because a secret copied into another
event's tool arguments, a stub outline, a state record or an action's intent is still
the secret. The values looked for are the sensitive values in the targets (phone numbers,
e-mail addresses, ID numbers, addresses, keys: :data:`~inspector.domain.text_checks.SENSITIVE`)
and every line of the targets long enough to be a copy rather than a coincidence.

Deleting leaves a tombstone, never the content: the ledger entry keeps ids, counts, a
reason *code* and a keyed digest of the reason text (the text itself may name the secret).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.domain.number_copies import NumberCopies
from inspector.domain.text_checks import SENSITIVE

# A line of a target this long is looked for verbatim elsewhere; shorter ones ("ok",
# "姓名：王芳" …) would match by coincidence, and sensitive values are looked for anyway.
COPY_MIN_CHARS = 16
# At most this many lines are looked for (the longest, after every sensitive value), so a
# deletion of a large log stays a bounded scan.
COPY_MAX_LINES = 500

# Why a deletion was carried out, as a stable code; the request's free text is only digested.
REASON_CODES = ("data_subject_request", "secret_exposed", "legal_hold_release", "retention_expired", "other")


# What a deletion does not look at, said with every listing and result: no output claims that
# "no copy remains" beyond the store and the spellings it checked (docs/untrusted-content.md).
NOT_CHECKED = (
    "files outside the store: sif exports and HTML reports in other folders (those in the store's own folder, and "
    "a transcript there, are read for each value as written, JSON- or HTML-escaped — a file of up to 2 MiB, 8 MiB in "
    "all, also in every spelling the store is read in — and named in a warning), other spellings in larger ones, backups and copies of the store file, other stores (those the inspector made of "
    "transcripts in its own data and cache folders are read, as written or JSON-escaped, and named in a "
    "warning) — remove those yourself",
    "copies encrypted, hashed, compressed, translated or paraphrased; encodings other than those looked for "
    "(escapes: URL, JSON/Python/JavaScript, octal, HTML, quoted-printable, CSS; UTF-7; base64, base32, base85, "
    "Ascii85, hex): base85, or Ascii85 without its <~ ~>, of anything but the value itself or a sensitive value "
    "ROT13-ed or reversed (an escaped, UTF-16 or case-changed spelling so encoded, a line of the targets turned); an encoding three deep; numbers in words other "
    "than English (digit words: one three nine, oh, double; place value: thirteen billion nine hundred …) and "
    "Chinese, Japanese or Sino-Korean numerals (digit by digit or place value): native Korean counting words "
    "(하나, 둘…) and other languages' words, a number said in pairs (thirteen ninety-one …); a separator between every letter other than between single letters "
    "or digits 1–7 characters apart (two letters at a time: zq.hi.dd…); in a text longer than 2 MiB, its part "
    "past 2 MiB in CSS escapes, UTF-7, a separator between every letter or an encoded run of another spelling "
    "(each such record is named in a warning)",
    "values under 7 characters once case and spacing are ignored, and lines of the targets under "
    f"{COPY_MIN_CHARS} characters that are not a sensitive value (phone, e-mail, ID, card, address, key)",
    "ledger entries of other sessions (each session's own entries, names and reviewers are checked: a copy "
    "there makes the deletion refuse, copy_kept)",
    "other sessions' materials, and their copies written another way (an exact copy in another session's events, "
    "records or summaries is named in a warning: a request there must remove it)",
    "a value split across records other than a sensitive value (phone, e-mail, ID, card, address, key) cut "
    "once at one record's end and another's start — each part 4+ characters, or any length between consecutive "
    "events, a call and its result, an event and the material it observed — or cut across two or three "
    "consecutive events, or a call and its result, or an event and its material, in any spelling above: a split "
    "line of prose (but one short enough to lie whole in such a join), a split with text between the parts, in four or more parts, a part spelled over three times "
    "the value's length (every character escaped), in another spelling across records that are not neighbours "
    "(a summary and a material: as folded only), or next to a text that ends or starts with a whole value of "
    "its own (a 16-character key whose rest opens the next text) is not looked for",
)


# What a deletion does look at, said beside NOT_CHECKED in every --json listing and result, so a
# script reading "no copies left" knows how far that reaches (hostile review nine).
CHECKED = (
    "places: the request's session — every event (its content, tool input, result and reasoning), every "
    "material's bytes (as UTF-8 and UTF-16), stub outlines, state records (facts), actions, summaries (text, "
    "claims, open questions), candidates, handoffs, other deletion requests' reasons, the session record, names "
    "(keys, ids, call ids, tool names) and its ledger entries; the search indexes of every record removed; "
    "exact copies in the store's other sessions (named in a warning); exports, reports, transcripts and kept "
    "logs in the store's own folder (as written, JSON- or HTML-escaped, and a file of up to 2 MiB in every spelling "
    "below; named in a warning)",
    "spellings: as written; case, spacing, line breaks and invisible characters ignored; fullwidth and "
    "mathematical letters and digits, other scripts' decimal digits, marks on ASCII characters and Cyrillic or "
    "Greek look-alikes; "
    "spelled-out at/dot; URL (%40, %u0040), JSON/Python/JavaScript (\\u0040, \\x40, \\u{40}), octal (\\100), "
    "HTML (&#64;, &commat;) and quoted-printable (=40, soft line breaks) escapes, up to four deep; CSS escapes "
    "(\\40 , \\000040); UTF-7 (+AEA-, IMAP's &AEA-); base64 (standard, URL-safe, MIME-wrapped) of the UTF-8 or "
    "UTF-16 bytes, and for a sensitive value of its lower/upper case and of its base64; base32 (standard and "
    "extended hex); base85 and Ascii85; hex, also as a list of bytes (0x7a, 7a:71, 7a 71) or in a hex dump (xxd, "
    "hexdump -C, od); ROT13; reversed; base64 or hex of the value ROT13-ed or reversed, and base32 of it so "
    "turned, and base85 or Ascii85 of a sensitive value so turned; "
    "every run of base64, base32, hex or Ascii85 (<~ ~>) in a text decoded and read again in every spelling here, "
    "two deep (an encoding of an escaped, UTF-16 or case-changed spelling, or of another encoding); a separator "
    "between every letter (z.q.h…, s-e-c-r-e-t); a number with separators between its digits, in Chinese "
    "numerals (一三九, 壹叁玖, or place value: 一百三十九亿…; Japanese 一億… and Sino-Korean 일삼구… too), in "
    "English digit words (one three "
    "nine, oh, double five) or place value (thirteen billion nine hundred twelve million …) or reversed; a "
    "sensitive value cut in two across two records, or in any spelling here across two or three consecutive "
    "events, a call and its result, or an event and its material. Each copy found by value says every spelling it holds (spellings; spelling: the first found)",
)


AS_WRITTEN = "as written"


@dataclass(frozen=True, slots=True)
class Copy:
    where: str  # events | events_fts | materials | original | stubs | state | actions | summaries | candidates | handoffs | deletion_requests
    id: str
    why: str
    # How a copy found by value wrote it ("as written", "base64 of UTF-16", "a number in English
    # words", …: the first spelling found in it); None for a copy by reference (a target, what it
    # observed, a record citing it, a search-index entry).
    spelling: str | None = None
    # Every spelling the record holds a value in (round eleven: a record found as written may also
    # hold it in base64, and naming the first alone hid the others); () for a copy by reference.
    spellings: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"where": self.where, "id": self.id, "why": self.why, "spelling": self.spelling,
                "spellings": list(self.spellings or ((self.spelling,) if self.spelling else ()))}


def sensitive_values(text: str) -> list[str]:
    """The concrete sensitive strings in a target, to find where other records repeat them."""
    found: list[str] = []
    for pattern in SENSITIVE.values():
        found += [m.group(0).strip() for m in pattern.finditer(text)]
    return sorted({f for f in found if f})


def secret_values(texts: list[str]) -> list[str]:
    """Everything to look for: sensitive values, and lines long enough to be a copy."""
    sensitive = set(sensitive_values("\n".join(texts)))
    lines = {line.strip() for text in texts for line in text.splitlines() if len(line.strip()) >= COPY_MIN_CHARS}
    longest = sorted(lines - sensitive, key=lambda v: (-len(v), v))[:COPY_MAX_LINES]
    return sorted(sensitive | set(longest), key=lambda v: (-len(v), v))


# Digits as a copy may write them: ASCII or fullwidth, with separators, spaces or invisible
# characters between them ("138-0013-8000" is also "13800138000", "138 0013 8000",
# "１３８００１３８０００" and "138-00\u200b13-8000") — domain/number_copies.py.
NUMBER_MIN_DIGITS = 7  # fewer digits match by coincidence (and are rarely personal data)


def number_pattern(values: list[str]) -> NumberCopies | None:
    """What finds every sensitive number among ``values`` in any of its written forms (None
    when there is none): a copy reformatted is still the same number, and so is one written
    backwards (its digits reversed, as ROT13 and reversal are looked for in other values)."""
    numbers, backwards = set(), set()
    for v in sensitive_values("\n".join(values)):
        digits = [d for d in v if d.isdigit()]
        if len(digits) >= NUMBER_MIN_DIGITS:
            number = "".join(str(int(d)) for d in digits)
            numbers.add(number)
            backwards.add(number[::-1])
    return NumberCopies.of(numbers | backwards, backwards - numbers)


def repeats(text: str, values: list[str]) -> list[str]:
    return [v for v in values if v and v in text]


def strings_in(value: Any, *, keys: bool = True) -> list[str]:
    """Every string inside a JSON value, to search without JSON escaping; ``keys=False`` leaves
    out the keys (names, which deletion_names looks at)."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            if keys:
                out += [k for k in item if isinstance(k, str)]
            stack += list(item.values())
        elif isinstance(item, list):
            stack += item
    return out


def holds_any(value: Any, values: list[str]) -> bool:
    return any(repeats(s, values) for s in strings_in(value))


def reason_code(record: dict[str, Any]) -> str:
    """The request's ``reason_code`` when it is one of :data:`REASON_CODES`, else ``other``."""
    code = record.get("reason_code")
    return code if isinstance(code, str) and code in REASON_CODES else "other"


# Strings an imported ledger payload may keep as they are: ids, refs, codes, versions, times,
# digests. Anything else (prose, a message, a value) is content and is kept only as a keyed digest.
_INERT = re.compile(r"[A-Za-z0-9_.:@/#+=-]{0,96}")
_DIGESTED = re.compile(r"hmac-sha256:[0-9a-f]{64}")


_BASE64ISH = re.compile(r"[A-Za-z0-9+/_-]{12,}={0,2}")
_HEXISH = re.compile(r"(?:[0-9a-fA-F]{2}){6,}")


def encoded_text(value: str) -> bool:
    """Whether ``value`` is text in base64 or hex (an id or a hash decodes to random bytes, not
    to text): such a string is content however identifier-like its characters look."""
    candidates: list[bytes] = []
    if _HEXISH.fullmatch(value):
        candidates.append(bytes.fromhex(value))
    if _BASE64ISH.fullmatch(value):
        body = value.rstrip("=")
        padded = body + "=" * (-len(body) % 4)
        for alphabet in (b"+/", b"-_"):
            try:
                candidates.append(base64.b64decode(padded, altchars=alphabet, validate=True))
            except (binascii.Error, ValueError):
                continue
    for data in candidates:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if len(text) >= 6 and sum(ch.isprintable() or ch in "\n\t" for ch in text) >= 0.9 * len(text):
            return True
    return False


def inert_payload(value: Any, digest: Callable[[str], str]) -> Any:
    """An imported ledger payload with every content-like string replaced by its keyed digest.

    The ledger is append-only, so a secret in it could never be deleted; imported payloads
    therefore keep only what looks like an identifier (and not like a sensitive value).
    Idempotent: a digest stays itself, so exporting and re-importing changes nothing.
    """
    if isinstance(value, str):
        if _DIGESTED.fullmatch(value):
            return value
        if _INERT.fullmatch(value) and not sensitive_values(value) and not encoded_text(value):
            return value
        return digest(value)
    if isinstance(value, dict):
        return {k if _INERT.fullmatch(k) else digest(k): inert_payload(v, digest) for k, v in value.items()}
    if isinstance(value, list):
        return [inert_payload(v, digest) for v in value]
    return value
