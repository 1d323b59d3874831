"""sif/1 parsing: every malformed input is refused with its line, before any store is touched."""

from __future__ import annotations

import json

import pytest

from inspector.domain.canonical import content_hash
from inspector.domain.errors import BadInput
from inspector.domain.sif import parse_lines

HEADER = json.dumps({"type": "header", "format": "sif/1"}).encode()


def lines(*records: dict) -> list[bytes]:
    return [HEADER, *(json.dumps(r, ensure_ascii=False).encode() for r in records)]


SESSION = {"type": "session", "id": "s1"}


def test_defaults_are_filled_so_export_writes_them() -> None:
    parsed = parse_lines(lines(SESSION, {"type": "state", "session": "s1", "key": "k", "kind": "goal", "value": "v"}))
    session, state = parsed.records
    assert session.record["adapter"] == "generic" and session.record["goal_revision"] == 1
    assert state.record["version"] == 1 and state.record["status"] == "active"


@pytest.mark.parametrize(
    ("raw", "code", "line"),
    [
        ([HEADER, b"{not json"], "malformed_json", 2),
        ([b'{"type":"header","format":"sif/9"}'], "unknown_format", 1),
        ([b'{"type":"session","id":"s"}'], "bad_input", 1),
        ([HEADER, b'{"type":"bogus"}'], "unknown_type", 2),
        ([HEADER, b'{"type":"event","session":"s1","seq":1}'], "bad_input", 2),
        ([HEADER, b'{"type":"event","session":"s1","seq":-1,"kind":"other"}'], "bad_input", 2),
        ([HEADER, b'{"type":"event","session":"s1","seq":1,"kind":"shout"}'], "bad_input", 2),
        ([HEADER, b'{"type":"event","session":"s1","seq":1,"kind":"other","at":"yesterday"}'], "bad_input", 2),
        ([HEADER, b'{"type":"stub","session":"s1","id":"x","material":"m","read_slice":[9,3]}'], "bad_input", 2),
        ([HEADER, b'[1,2]'], "bad_input", 2),
        ([], "bad_input", 1),
    ],
)
def test_bad_lines_are_refused_with_their_line(raw: list[bytes], code: str, line: int) -> None:
    with pytest.raises(BadInput) as err:
        parse_lines(raw)
    assert err.value.code == code
    assert err.value.line == line
    assert f"line {line}" in err.value.message


def test_material_hash_must_match_its_content() -> None:
    bad = {"type": "material", "session": "s1", "id": "m", "content": "abc", "content_hash": content_hash(b"abd")}
    with pytest.raises(BadInput) as err:
        parse_lines(lines(SESSION, bad))
    assert err.value.code == "hash_mismatch" and err.value.line == 3


def test_material_hash_is_computed_when_absent_and_base64_is_decoded() -> None:
    rec = {"type": "material", "session": "s1", "id": "m", "encoding": "base64", "content": "AAEC/w=="}
    parsed = parse_lines(lines(SESSION, rec))
    material = parsed.records[1]
    assert material.payload == b"\x00\x01\x02\xff"
    assert material.record["content_hash"] == content_hash(b"\x00\x01\x02\xff")


def test_identical_duplicate_is_dropped_and_conflicting_one_names_both_lines() -> None:
    ev = {"type": "event", "session": "s1", "seq": 1, "kind": "other", "content": "a"}
    assert len(parse_lines(lines(SESSION, ev, ev)).records) == 2
    with pytest.raises(BadInput) as err:
        parse_lines(lines(SESSION, ev, {**ev, "content": "b"}))
    assert err.value.code == "conflicting_record" and err.value.line == 4 and "line 3" in err.value.message


def test_exact_bytes_matter_for_identity() -> None:
    """'é' precomposed and decomposed are different records: no Unicode normalisation."""
    a = {"type": "event", "session": "s1", "seq": 1, "kind": "other", "content": "caf\u00e9"}
    b = {**a, "content": "cafe\u0301"}
    with pytest.raises(BadInput):
        parse_lines(lines(SESSION, a, b))


def test_unknown_fields_on_known_types_are_kept() -> None:
    ev = {"type": "event", "session": "s1", "seq": 1, "kind": "other", "x_harness": {"turn": 3}}
    assert parse_lines(lines(SESSION, ev)).records[1].record["x_harness"] == {"turn": 3}


def test_a_time_checked_after_another_is_judged_on_its_own() -> None:
    """sif_schema._is_time remembers the last time it took (the events of one line share it): any
    sequence of texts gets the answer each would get alone."""
    import random
    from datetime import datetime

    from inspector.domain.sif_schema import _is_time

    def alone(x: object) -> bool:
        if not isinstance(x, str):
            return False
        try:
            return datetime.fromisoformat(x).tzinfo is not None
        except ValueError:
            return False

    pool: list[object] = ["2025-05-01T00:00:00Z", "2025-05-01T00:00:00", "2025-05-01T00:00:00+02:00", "", "x",
                          "2025-13-01T00:00:00Z", None, 5, "2025-05-01T00:00:00.123456Z", "2025-05-01"]
    rng = random.Random(3)
    for _ in range(3000):
        x = rng.choice(pool)
        assert _is_time(x) == alone(x), x
