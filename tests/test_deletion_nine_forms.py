"""The spellings hostile review nine added to a deletion's matching, one by one, with the texts
that must stay unmatched (domain/deletion_forms.py, number_copies.py, needles.py)."""

from __future__ import annotations

import base64
import codecs

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.domain.deletion import number_pattern
from inspector.domain.deletion_forms import LooseMatcher, decoded
from inspector.domain.needles import Needles

MAIL = "zq.hidden.person@example.org"
ACCENTED = "josé.núñez@example.org"
PHONE = "13912345678"


def test_each_escape_of_this_round_is_decoded() -> None:
    assert decoded("zq.hidden.person\\u{40}example.org") == MAIL  # JavaScript, Rust, Swift
    assert decoded("zq.hidden.person\\100example.org") == MAIL  # octal
    assert decoded("zq.hidden.person%u0040example.org") == MAIL  # escape()
    assert decoded("zq.hidden.person%252540example.org") == MAIL  # percent-encoded three times
    assert decoded("zq.hidden.pe=\r\nrson=40example.org") == MAIL  # quoted-printable, soft line break
    assert decoded("jos=C3=A9.n=C3=BA=C3=B1ez@example.org") == ACCENTED
    # quoted-printable is read only where it encodes what it must (a non-ASCII character, a sign),
    # never a letter or digit: an assignment (x=31), a key (token=AB12) or a base64 pad stays
    for text in ("x=3139", "token=AB12CD", "dGVzdA==", "a == b", "=4A=4B", "=FF=FE"):
        assert decoded(text) == text, text


def test_the_values_spellings_are_found_and_other_values_are_not() -> None:
    loose = LooseMatcher.of([MAIL, ACCENTED])
    b64 = base64.b64encode
    for text in (codecs.encode(MAIL, "rot13"), MAIL[::-1], MAIL.upper()[::-1], b64(MAIL.encode("utf-16-le")).decode(),
                 b64(MAIL.encode("utf-16-be")).decode(), b64(MAIL.encode("utf-16")).decode(),
                 b64(MAIL.upper().encode()).decode(), b64(b64(MAIL.encode())).decode(),
                 MAIL.encode("utf-16-le").hex(), "jos=C3=A9.n=C3=BA=C3=B1ez=40example.org"):
        assert loose.found_in(text), text
    other = "zq.other.person@example.org"
    for text in (codecs.encode(other, "rot13"), other[::-1], b64(other.encode("utf-16-le")).decode(),
                 "zq.hidden.person", "example.org"):
        assert not loose.found_in(text), text


def _dump(data: bytes, style: str) -> str:
    """``data`` as xxd, hexdump -C or od -A x -t x1z print it, sixteen bytes a line."""
    lines = []
    for at in range(0, len(data), 16):
        row = data[at:at + 16]
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in row)
        if style == "xxd":
            groups = " ".join(row[i:i + 2].hex() for i in range(0, len(row), 2))
            lines.append(f"{at:08x}: {groups:<40} {text}")
        elif style == "hexdump":
            lines.append(f"{at:08x}  {' '.join(f'{b:02x}' for b in row[:8]):<23}  "
                         f"{' '.join(f'{b:02x}' for b in row[8:]):<23}  |{text}|")
        else:
            lines.append(f"{at:06x} {' '.join(f'{b:02x}' for b in row):<47}  >{text}<")
    return "\n".join(lines) + "\n"


def test_a_value_in_a_hex_dump_is_found() -> None:
    """Sixteen bytes a line, between offsets and an ASCII column: neither column holds it whole."""
    loose = LooseMatcher.of([MAIL])
    data = f"name: Zhou\nmail: {MAIL}\n".encode()
    for style in ("xxd", "hexdump", "od"):
        assert loose.found_in(_dump(data, style)), style
        assert not loose.found_in(_dump(data.replace(b"zq.", b"zr."), style)), style


def test_a_value_as_a_list_of_hex_bytes_is_found() -> None:
    """A secret embedded in code or a config as bytes; a MAC address, a date or hex-looking words are not it."""
    loose = LooseMatcher.of([MAIL])
    data = MAIL.encode()
    for text in ("{" + ", ".join(f"0x{b:02x}" for b in data) + "}", ":".join(f"{b:02x}" for b in data),
                 " ".join(f"{b:02X}" for b in data), "-".join(f"{b:02x}" for b in data)):
        assert loose.found_in(f"key = {text};"), text
    for text in ("aa:bb:cc:dd:ee:ff:00:11", "2025-05-01 12:30:45", "cafe de fa ce be ad ed 12 34 56 78"):
        assert not loose.found_in(text), text


def test_a_number_in_chinese_numerals_and_other_separators_is_found() -> None:
    numbers = number_pattern([f"call {PHONE}"])
    assert numbers is not None
    for text in ("一三九一二三四五六七八", "壹叁玖壹贰叁肆伍陆柒捌", "幺三九 幺二三四 五六七八", "一三九-一二三四-五六七八",
                 "電話：一三九一二三四五六七八一下", "电话13912345678一直打不通", "139_1234_5678", "139,1234,5678",
                 "139:1234:5678", "139、1234、5678", PHONE[::-1]):
        assert numbers.search(text) is not None, text
    for text in ("一三九一二三四五六七九", "我们一起看了三四个方案，五六天后再定", "139_1234_5679", "一三九一二三四五六七"):
        assert numbers.search(text) is None, text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="abc@.", min_size=3, max_size=9), min_size=0, max_size=260),
       st.text(alphabet="abc@. ", max_size=80))
def test_many_strings_are_found_exactly_where_in_finds_them(strings: list[str], text: str) -> None:
    """Past 200 strings they are looked up by their first characters (needles.py): the same answer."""
    needles = Needles.of(strings, 3)
    assert needles.any_in(text) == any(s in text for s in strings if len(s) >= 3)
