"""A long line is decoded once for the format's detection and the conversion (services/long_lines.py).

A 30 MB message on a transcript's first lines was decoded (and re-encoded) by ``detect`` and again
by the converter; the value is now kept from one read to the next, then forgotten.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.services import importing
from inspector.services.importing import import_file
from inspector.services.long_lines import LONG_LINE, DecodedOnce


def _claude_code(path: Path, text: str) -> Path:
    base = {"isSidechain": False, "sessionId": "s-long", "cwd": "/x", "version": "2.0.76"}
    recs = [{**base, "parentUuid": None, "type": "user", "uuid": "u1", "timestamp": "2026-01-06T14:55:06Z",
             "message": {"role": "user", "content": text}},
            {**base, "parentUuid": "u1", "type": "user", "uuid": "u2", "timestamp": "2026-01-06T14:55:07Z",
             "message": {"role": "user", "content": "and then this"}}]
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in recs))
    return path


async def test_a_long_first_line_is_decoded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    decoded: list[int] = []
    real = importing.fast_loads

    def counting(raw: bytes) -> Any:
        decoded.append(len(raw))
        return real(raw)

    monkeypatch.setattr(importing, "fast_loads", counting)
    report = await import_file(_claude_code(tmp_path / "a.jsonl", "look at this log: " + "x" * 200_000),
                               tmp_path / "s.db", actor="t")
    assert report.added["event"] == 2
    assert len([n for n in decoded if n >= LONG_LINE]) == 1


def test_a_value_is_handed_out_twice_at_most_and_a_refusal_again() -> None:
    calls: list[bytes] = []

    def loads(raw: bytes) -> Any:
        calls.append(raw)
        if raw.startswith(b"!"):
            raise ValueError("not JSON")
        return json.loads(raw)

    once = DecodedOnce(loads)
    line = json.dumps({"t": "x" * LONG_LINE}).encode()
    assert once(line) is once(bytes(line))  # equal bytes, another object: the kept value
    assert once(line) == json.loads(line) and len(calls) == 2  # kept no longer: decoded again
    bad = b"!" + line
    for _ in range(2):
        with pytest.raises(ValueError):
            once(bad)
    once.forget()
