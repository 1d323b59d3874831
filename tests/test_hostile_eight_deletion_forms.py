"""A deleted value written in another script's digits, with marks on it, or with look-alike letters
(hostile review eight, docs/reviews/untrusted-eight.md).

Before: the deletion folded each copy with NFKC, which makes fullwidth and mathematical digits
ASCII but leaves every other script's decimal digits as they are: the phone number of a deleted
event written in Arabic-Indic (``١٣٩١٢٣٤٥٦٧٨``, how an Arabic-locale app shows it) or Devanagari
digits, or with a combining low line under each digit (``1̲3̲9̲…``), or its e-mail with one Cyrillic
``і`` (``zq.hіdden.person@…``, the look-alike the verdict rules already fold), was not listed, and
``delete`` said "done" with the copy left in the store. Now each is a copy; a different number in
the same digits, and Russian, Arabic or Hebrew text of its own, are not.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

AT = "2025-05-01T00:00:00Z"
SID = "s-forms"
PHONE = "13912345678"
MAIL = "zq.hidden.person@example.org"


def _digits(text: str, zero: int) -> str:
    return "".join(chr(zero + int(c)) if c.isdigit() else c for c in text)


COPIES = {
    "arabic-indic digits": f"رقمي {_digits(PHONE, 0x660)}",
    "extended arabic-indic digits": _digits("139-1234-5678", 0x6F0),
    "devanagari digits": f"मेरा नंबर {_digits(PHONE, 0x966)} है",
    "bengali digits with spaces": _digits("139 1234 5678", 0x9E6),
    "a combining low line under each digit": "".join(c + "\u0332" for c in PHONE),
    "a cyrillic i in the e-mail": "write to " + MAIL.replace("i", "\u0456"),
    "a cyrillic a in the domain": MAIL.replace("example", "ex\u0430mple").upper(),
    "a greek omicron in the e-mail": MAIL.replace("person", "pers\u03bfn"),
}
HARMLESS = {
    "another number in arabic-indic digits": _digits("13912345679", 0x660),
    "russian text": "Привет, мир: это обычное сообщение о проекте",
    "pointed hebrew": "שָׁלוֹם עוֹלָם, זֶה טֶקְסְט רָגִיל",
    "voweled arabic": "مَرْحَبًا بِالْعَالَمِ",
    "parts of the e-mail": "the hidden person works at example dot org",
}


def _store(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    seqs: dict[str, int] = {}
    events = [{"seq": 1, "kind": "user_message", "content": f"call me on {PHONE} or mail {MAIL}"}]
    for name, text in [*COPIES.items(), *HARMLESS.items()]:
        seqs[name] = len(events) + 1
        events.append({"seq": len(events) + 1, "kind": "assistant_message", "content": text})
    records = [{"type": "header", "format": "sif/1"},
               {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
               *({"type": "event", "session": SID, "trust": "user" if e["seq"] == 1 else "model", "at": AT, **e}
                 for e in events),
               {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "remove my details"}]
    source, store = tmp_path / "in.jsonl", tmp_path / "s.db"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    source.unlink()
    return store, seqs


def test_each_spelling_is_listed_and_none_of_the_harmless(tmp_path: Path) -> None:
    store, seqs = _store(tmp_path)
    listing = CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"])
    assert listing.exit_code == 0, listing.output
    listed = {c["id"] for c in json.loads(listing.stdout)["copies"] if c["where"] == "events"}
    missed = [name for name in COPIES if f"evt:{seqs[name]}" not in listed]
    taken = [name for name in HARMLESS if f"evt:{seqs[name]}" in listed]
    assert (missed, taken) == ([], []), listing.stdout


def test_after_the_deletion_no_spelling_is_left_in_the_store(tmp_path: Path) -> None:
    store, _seqs = _store(tmp_path)
    done = CliRunner().invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["status"] == "done", done.output
    with sqlite3.connect(store) as con:
        left = {text for (text,) in con.execute("SELECT content FROM events")}
    assert not left & set(COPIES.values())
    assert set(HARMLESS.values()) <= left
    data = b"".join(Path(f"{store}{part}").read_bytes() for part in ("", "-wal") if Path(f"{store}{part}").exists())
    assert not [name for name, text in COPIES.items() if text.encode() in data]


def test_the_table_of_other_digits_is_unicodes() -> None:
    """``OTHER_ZEROS`` is every Basic Multilingual Plane Nd zero but ASCII's and fullwidth's (NFKC folds those)."""
    import unicodedata

    from inspector.domain.deletion_forms import OTHER_ZEROS

    zeros = [c for c in range(0x80, 0x10000) if unicodedata.category(chr(c)) == "Nd" and unicodedata.decimal(chr(c)) == 0]
    assert (*OTHER_ZEROS, 0xFF10) == tuple(zeros)
    assert all(unicodedata.decimal(chr(z + i)) == i for z in OTHER_ZEROS for i in range(10))


def _attack_spellings() -> tuple[dict[str, str], str, str]:
    """Review eight's 30 spellings of the target's values; the encodings not listed here (ROT13,
    reversed, quoted-printable, CSS and octal escapes, %uXXXX, base64 of UTF-16, Chinese numerals)
    are declared not found (docs/untrusted-content.md)."""
    import base64

    key, line = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e", "the vault combination is purple-elephant-42"
    return {
        "arabic-indic": _digits(PHONE, 0x660), "devanagari": _digits(PHONE, 0x966),
        "math bold digits": _digits(PHONE, 0x1D7CE), "superscript": PHONE.translate(str.maketrans(
            "0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")), "soft hyphens": "\u00ad".join(PHONE),
        "low lines": "".join(c + "\u0332" for c in PHONE), "grapheme joiners": "\u034f".join(PHONE),
        "dots": "139.1234.5678", "cyrillic i": MAIL.replace("i", "\u0456"),
        "cyrillic a": MAIL.replace("example", "ex\u0430mple"),
        "math bold mail": "".join(chr(0x1D41A + ord(c) - 97) if c.islower() else c for c in MAIL),
        "soft hyphen mail": MAIL.replace("hidden", "hid\u00adden"), "&commat;": MAIL.replace("@", "&commat;"),
        "\\U escapes": "".join(f"\\U{ord(c):08x}" for c in MAIL), "fullwidth at": MAIL.replace("@", "＠"),
        "small at": MAIL.replace("@", "﹫"), "base64": base64.b64encode(MAIL.encode()).decode(),
        "line inside": f"prefix: {line} and more", "line upper nbsp": line.upper().replace(" ", "\u00a0"),
        "line tabs": line.replace(" ", "\t"), "key zwj": key[:10] + "\u200d" + key[10:],
        "key double json": json.dumps(json.dumps(key)),
    }, key, line


def test_the_attack_spellings_are_all_listed(tmp_path: Path) -> None:
    spellings, key, line = _attack_spellings()
    records = [{"type": "header", "format": "sif/1"},
               {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
               {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                "content": f"call me on {PHONE} or mail {MAIL} key {key}\n{line}"},
               *({"type": "event", "session": SID, "seq": n, "kind": "assistant_message", "trust": "model", "at": AT,
                  "content": text} for n, text in enumerate(spellings.values(), start=2)),
               {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "mine"}]
    source, store = tmp_path / "in.jsonl", tmp_path / "s.db"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    listing = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    listed = {c["id"] for c in listing["copies"] if c["where"] == "events"}
    assert [name for n, name in enumerate(spellings, start=2) if f"evt:{n}" not in listed] == []
