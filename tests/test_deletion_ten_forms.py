"""The spellings round ten added to a deletion's matching, one by one, with the texts that must stay
unmatched (domain/other_readings.py, encoded_fragments.py, number_words.py, deletion_spelling.py)."""

from __future__ import annotations

import base64
import codecs

from inspector.domain.deletion import number_pattern
from inspector.domain.deletion_forms import LooseMatcher
from inspector.domain.deletion_spelling import spelled_in

MAIL = "zq.hidden.person@example.org"
PHONE = "13912345678"
CARD = "4111111111111111"


def _spelling(text: str, values: tuple[str, ...] = (MAIL, f"call {PHONE}", f"card {CARD}")) -> str | None:
    return spelled_in(text, LooseMatcher.of(values), number_pattern(list(values)))


def test_css_escapes_are_read() -> None:
    for text in (MAIL.replace("@", "\\40 "), MAIL.replace("@", "\\000040"), MAIL.replace("@", "\\@"),
                 MAIL.replace(".", "\\2e ").replace("@", "\\40\t"), "".join(f"\\{ord(c):X} " for c in MAIL),
                 MAIL.replace("@", "\\\\40 ")):  # escaped again, as a JSON string holds it
        assert _spelling(text) == "CSS escapes", text
    assert _spelling("".join(f"\\{ord(c):06x}" for c in PHONE)) == "CSS escapes, then a number with other separators or digits"
    for text in (".icon\\:hover { content: '\\2014 ' }", "zq.other.person\\40 example.org", "C:\\Users\\zq\\40 docs"):
        assert _spelling(text) is None, text


def test_utf7_is_read() -> None:
    assert _spelling(MAIL.replace("@", "+AEA-")) == "UTF-7"
    assert _spelling(MAIL.replace("@", "&AEA-")) == "UTF-7"  # IMAP's modified UTF-7
    # every character encoded: UTF-7 is base64 of UTF-16 there, and is found (and named) as that
    assert _spelling("+AHoAcQAuAGgAaQBkAGQAZQBuAC4AcABlAHIAcwBvAG4AQABlAHgAYQBtAHAAbABlAC4AbwByAGc-") == "base64 of UTF-16"
    chinese = "北京市朝阳区建国路88号"
    assert _spelling(chinese.encode("utf-7").decode("ascii"), (chinese,)) == "UTF-7"
    for text in ("a+b+c = x+y+z; c++ +AAA- here", "zq.other.person+AEA-example.org", "1+1=2 +86 139", "&amp; &AElig;"):
        assert _spelling(text) is None, text


def test_base32_base85_and_ascii85_are_found_at_every_alignment() -> None:
    data = MAIL.encode()
    for pad in range(5):
        lead = b"x" * pad
        assert _spelling(base64.b32encode(lead + data).decode()) == "base32", pad
        assert _spelling(base64.b32encode(lead + data).decode().lower()) == "base32", pad
        assert _spelling(base64.b32hexencode(lead + data).decode()) == "base32", pad
        assert _spelling(base64.b85encode(lead + data + b"!").decode()) == "base85", pad
        assert _spelling(base64.a85encode(lead + data + b"!", wrapcol=20).decode()) == "Ascii85", pad  # wrapped
    other = b"zq.other.person@example.org"
    for text in (base64.b32encode(other), base64.b85encode(other), base64.a85encode(other)):
        assert _spelling(text.decode()) is None, text


def test_an_encoded_rot13_or_reversal_is_found() -> None:
    for turned, name in ((codecs.encode(MAIL, "rot13"), "ROT13-ed"), (MAIL[::-1], "reversed")):
        assert _spelling(base64.b64encode(turned.encode()).decode()) == f"base64 of the value {name}"
        assert _spelling(base64.urlsafe_b64encode(b"ab" + turned.encode()).decode()) == f"base64 of the value {name}"
        assert _spelling(turned.encode().hex()) == f"hex of the value {name}"
    assert _spelling(base64.b64encode(b"zq.other.person@example.org"[::-1]).decode()) is None


def test_a_separator_between_every_letter_is_read() -> None:
    for sep in (".", "-", "_", " . ", "·", "/", ", ", "|"):
        assert _spelling(f"mail: {sep.join(MAIL)} thanks") == "a separator between every letter", sep
    for text in ("a.b.c.d.e.f.g.h and i-j-k-l-m-n-o", "z.q.h.i.d.d.e.n", "x = a + b * c - d / e + f - g",
                 "-".join("zq.other.person@example.org"), "zq.hi.dd.en.pe.rs.on"):
        assert _spelling(text) is None, text


def test_numbers_in_words_are_read() -> None:
    for text in ("one three nine one two three four five six seven eight", "ONE-THREE-NINE-ONE-TWO-THREE-FOUR-FIVE-SIX"
                 "-SEVEN-EIGHT", "onethreenineonetwothreefourfivesixseveneight",
                 "eight seven six five four three two one nine three one",
                 "four one double one, double one double one, triple one one, double one double one"):
        assert _spelling(text) is not None and "English words" in str(_spelling(text)), text
    assert _spelling("一百三十九亿一千二百三十四万五千六百七十八") == "a number in Chinese place-value numerals"
    assert _spelling("壹佰叁拾玖億壹仟贰佰叁拾肆萬伍仟陆佰柒拾捌") == "a number in Chinese place-value numerals"
    for text in ("one two three four five six seven eight nine", "someone, two three, four five six seven",
                 "三千五百万元的预算，一百三十九个人", "一百三十九亿一千二百三十四万五千六百七十九",
                 "one three nine one two three four five six seven nine"):
        assert _spelling(text) is None, text
