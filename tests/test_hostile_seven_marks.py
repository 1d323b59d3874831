"""A flood of combining marks of any script is counted (hostile review seven).

terminal_safe counted a run of nine or more combining marks, but knew only the Latin-centred
blocks (U+0300–U+036F, U+1AB0…, U+1DC0…, U+20D0…, U+FE20…). Before: ``Z`` + 2,000 × U+0591
(a Hebrew accent), U+064B (an Arabic vowel sign), U+0E49 (a Thai tone mark), U+0951 (a Devanagari
stress sign) or U+1D167 (a musical combining mark) reached the terminal whole, as did a Latin
flood with one Hebrew mark between each pair (the Latin run never reached nine). Now every
mark of categories Mn and Me counts (inspector/domain/combining_marks.py); ordinary pointed,
voweled and accented text is unchanged.
"""

from __future__ import annotations

import json
import unicodedata

import pytest

from inspector.domain import combining_marks
from inspector.domain.terminal_safe import is_terminal_safe, json_safe, line_safe, terminal_safe


def regenerate() -> tuple[tuple[int, int], ...]:
    """The table :mod:`inspector.domain.combining_marks` holds, from this Python's unicodedata."""
    ranges: list[tuple[int, int]] = []
    start = None
    for code in range(0x300, 0x110001):
        mark = (code < 0x110000 and unicodedata.category(chr(code)) in ("Mn", "Me")
                and not (0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or code == 0x34F))
        if mark and start is None:
            start = code
        elif not mark and start is not None:
            ranges.append((start, code - 1))
            start = None
    return tuple(ranges)


def test_the_table_is_this_pythons_unicode() -> None:
    assert combining_marks.UNICODE_VERSION == unicodedata.unidata_version
    assert combining_marks.RANGES == regenerate()


@pytest.mark.parametrize("mark", ["\u0591", "\u064b", "\u0e49", "\u0951", "\u0f71", "\u302a", "\U0001d167",
                                  "\u0300", "\u20dd"])
def test_a_flood_of_any_scripts_marks_is_counted(mark: str) -> None:
    flood = "Z" + mark * 2000 + " next"
    assert terminal_safe(flood) == "Z⟨2000 combining marks⟩ next"
    assert line_safe(flood) == "Z⟨2000 combining marks⟩ next"
    assert not is_terminal_safe(flood)
    document = json.dumps({"t": flood}, ensure_ascii=False)
    assert json.loads(json_safe(document)) == {"t": flood}  # --json keeps the exact string
    assert mark not in json_safe(document)


def test_a_flood_mixing_two_scripts_marks_is_counted() -> None:
    assert terminal_safe("Z" + "\u0300\u0591" * 30) == "Z⟨60 combining marks⟩"


@pytest.mark.parametrize("text", ["בְּרֵאשִׁית בָּרָא", "بِسْمِ ٱللَّٰهِ", "ไม่ได้ครับ", "स्वागत है", "ཧཱུྃ", "Ångström e\u0301\u0302"])
def test_ordinary_pointed_and_accented_text_is_unchanged(text: str) -> None:
    assert terminal_safe(text) == text
    assert is_terminal_safe(text)


def test_letters_of_the_planes_above_are_not_marks() -> None:
    """The scan takes the planes above the BMP as one range (speed); only their real marks count."""
    bold = "𝐇𝐞𝐥𝐥𝐨𝐖𝐨𝐫𝐥𝐝𝐗"  # mathematical bold letters, U+1D400…: a run of eleven, no mark among them
    assert terminal_safe(bold) == bold
    assert json.loads(json_safe(json.dumps(bold, ensure_ascii=False))) == bold
    assert terminal_safe("x" + "\U0001d167" * 12 + bold) == "x⟨12 combining marks⟩" + bold
