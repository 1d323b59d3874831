"""No input crashes an importer: mutated real files either import (store verifies) or are
refused with exit 3 and one sentence, the store unchanged.

The sources are every real transcript (Codex: one built from FORMATS.md, none is in the
collection) and two sif/1 sample sessions.
Mutations: a flipped byte, a cut, a hostile snippet inserted (lone surrogate escape, an
integer past 64 bits, deep nesting, a second record on the line, a duplicate key, bytes
that are not UTF-8), and a field's value swapped for one of another type while the JSON
stays valid. ``conversion_failed`` (the converters' last-resort refusal) counts as a bug.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.cli.main import cli
from tests.conftest import SAMPLES

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions"
if not REAL.is_dir():
    pytest.skip(f"the real transcripts are not beside the project ({REAL})", allow_module_level=True)

WINDOW = 24  # lines of a long JSONL file per example, so one example stays well under a second


def _sources() -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []
    for path in sorted(REAL.rglob("*")):
        if not path.is_file() or path.suffix in (".md", ".yaml", ".yml"):
            continue
        if path.stat().st_size > 200_000 and path.suffix != ".jsonl":
            continue
        out.append((path.name, path.read_bytes()))
    codex = [  # no real Codex rollout is in the collection: this one follows FORMATS.md
        {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "cx-1", "cwd": "/repo"}},
        {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix it"}]}},
        {"timestamp": "2026-01-01T00:00:02Z", "type": "response_item",
         "payload": {"type": "reasoning", "summary": [{"type": "summary_text", "text": "look"}],
                     "encrypted_content": "gAAAAB=="}},
        {"timestamp": "2026-01-01T00:00:03Z", "type": "response_item",
         "payload": {"type": "function_call", "name": "shell", "arguments": "{\"cmd\":\"ls\"}", "call_id": "c1"}},
        {"timestamp": "2026-01-01T00:00:04Z", "type": "response_item",
         "payload": {"type": "function_call_output", "call_id": "c1", "output": "a.py"}},
        {"timestamp": "2026-01-01T00:00:06Z", "type": "compacted",
         "payload": {"message": "", "replacement_history": [{"type": "message", "role": "user", "content": []}]}},
    ]
    out.append(("rollout-cx-1.jsonl", ("\n".join(json.dumps(r) for r in codex) + "\n").encode()))
    for sample in ("01_export_timeout", "02_orders_handoff"):  # sif/1: all or nothing
        out.append((f"{sample}.jsonl", SAMPLES[sample].read_bytes()))
    return out


SOURCES = _sources()
HOSTILE = [b"\\ud800", b"\\udfff\\u0041", b"99999999999999999999", b"-9223372036854775809", b"1e999",
           b"[" * 5000, b'}{"type":"summary","summary":"x"}', b'"a":1,"a":2,', b"\xff\xfe\x80", b"\n", b'"',
           b"NaN", b"\x00", b'{"type":"user","type":"system"}']
SWAPS = [b"12345", b"true", b"{}", b'{"a":[1,{"b":null}]}', b'["x",2]', b"null", b'"\\ud800"',
         b"99999999999999999999", b'"not a time"', b"-1.5"]
KEY = re.compile(rb'"([A-Za-z_]+)":')


def _window(data: bytes, start: int) -> bytes:
    lines = data.split(b"\n")
    if len(lines) <= WINDOW:
        return data
    first = start % (len(lines) - WINDOW)
    return b"\n".join(lines[first:first + WINDOW]) + b"\n"


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    name, data = draw(st.sampled_from(SOURCES))
    if name.endswith(".jsonl") and len(data) > 100_000:  # long transcripts; sif samples stay whole
        data = _window(data, draw(st.integers(0, 10_000)))
    kind = draw(st.sampled_from(["flip", "cut", "insert", "swap", "swap"]))
    pos = draw(st.integers(0, max(0, len(data) - 1)))
    if kind == "flip":
        data = data[:pos] + bytes([draw(st.integers(0, 255))]) + data[pos + 1:]
    elif kind == "cut":
        data = data[:pos]
    elif kind == "insert":
        data = data[:pos] + draw(st.sampled_from(HOSTILE)) + data[pos:]
    else:
        keys = list(KEY.finditer(data))
        if keys:
            m = keys[draw(st.integers(0, len(keys) - 1))]
            data = data[:m.end()] + draw(st.sampled_from(SWAPS)) + b',"_swapped":' + data[m.end():]
    return name, data


def _snapshot(store: Path) -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(store.parent.glob(store.name + "*")))).hexdigest()


@pytest.fixture(scope="module")
def base_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("base") / "base.db"
    name, data = next(s for s in SOURCES if s[0].endswith(".conversation.json"))
    (store.parent / name).write_bytes(data)
    assert CliRunner().invoke(cli, ["import", str(store.parent / name), "--into", str(store)]).exit_code == 0
    return store


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(case=mutated())
def test_a_mutated_real_file_imports_or_is_refused_in_one_sentence(tmp_path: Path, base_store: Path,
                                                                   case: tuple[str, bytes]) -> None:
    name, data = case
    work = tmp_path / hashlib.sha256(data).hexdigest()[:16]
    work.mkdir(exist_ok=True)
    src, store = work / name, work / "s.db"
    src.write_bytes(data)
    shutil.copy(base_store, store)
    before = _snapshot(store)
    result = CliRunner().invoke(cli, ["import", str(src), "--into", str(store), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 3), result.output
    if result.exit_code == 3:
        assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: "), result.stderr
        assert json.loads(result.stdout)["error"]["code"] != "conversion_failed", result.stdout
        assert _snapshot(store) == before
    else:
        # a fresh store from the same base at a path an earlier example used: no remembered head
        verified = CliRunner().invoke(cli, ["verify", str(store), "--json"],
                                      env={"INSPECTOR_DATA_DIR": str(work / "data")})
        assert verified.exit_code == 0, verified.output
        exported = CliRunner().invoke(cli, ["export", str(store), "-o", str(work / "out.jsonl")])
        assert exported.exit_code == 0, exported.output
    shutil.rmtree(work)
